// Passkeys on the profile page: add one to this profile (the registration ceremony) and, on another
// browser, sign in with it (the authentication ceremony: this browser then holds the passkey's profile).
// The server makes the options and verifies the answers (server/passkeys.py); the binary fields travel as
// base64url. WebAuthn needs a secure context (https, or localhost): elsewhere the panel says so and points
// to the one-time link below it.
import { html, useState, useEffect } from "./lib.js";
import { t, tr } from "./i18n.js";
import { api } from "./api.js";

function bytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64 + "===".slice((b64.length + 3) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0)).buffer;
}

function text(buffer) {
  let raw = "";
  for (const byte of new Uint8Array(buffer)) raw += String.fromCharCode(byte);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const descriptors = (list) => (list || []).map((c) => ({ ...c, id: bytes(c.id) }));

/** The browser's PublicKeyCredential as the JSON the server reads (WebAuthn's own JSON shape). */
function credentialJson(credential) {
  const answer = credential.response;
  const response = { clientDataJSON: text(answer.clientDataJSON) };
  if (answer.attestationObject) {
    response.attestationObject = text(answer.attestationObject);
    if (answer.getTransports) response.transports = answer.getTransports();
  } else {
    response.authenticatorData = text(answer.authenticatorData);
    response.signature = text(answer.signature);
    if (answer.userHandle) response.userHandle = text(answer.userHandle);
  }
  return {
    id: credential.id, rawId: text(credential.rawId), type: credential.type, response,
    clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
    ...(credential.authenticatorAttachment ? { authenticatorAttachment: credential.authenticatorAttachment } : {}),
  };
}

/** What went wrong: the server's coded refusal ({en, ja}), or the browser's own (a string key: cancelled,
 * timed out, or this device already holds a passkey of the profile). */
function problemOf(error) {
  if (error && error.code && error.en) return error;
  return { key: error && error.name === "InvalidStateError" ? "passkey_exists" : "passkey_cancelled" };
}

export function Passkeys({ onSignedIn }) {
  const secure = window.isSecureContext && typeof window.PublicKeyCredential === "function";
  // (A secure page in a browser without WebAuthn says that instead.)
  const why = window.isSecureContext ? "passkey_unsupported" : "passkey_insecure";
  const [keys, setKeys] = useState(null);
  const [problem, setProblem] = useState(null);
  const [done, setDone] = useState(null);
  const [busy, setBusy] = useState(false);
  const load = () => api.passkeys().then((body) => setKeys(body.passkeys)).catch((error) => setProblem(problemOf(error)));
  useEffect(() => {
    if (secure) load();
  }, []);
  const run = async (step) => {
    setProblem(null);
    setDone(null);
    setBusy(true);
    try {
      await step();
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  };
  const add = () => run(async () => {
    const { options } = await api.passkeyBegin("register");
    const made = await navigator.credentials.create({ publicKey: {
      ...options, challenge: bytes(options.challenge), user: { ...options.user, id: bytes(options.user.id) },
      excludeCredentials: descriptors(options.excludeCredentials) } });
    const body = await api.passkeyFinish("register", credentialJson(made));
    setKeys(body.passkeys);
    setDone(t("passkey_added"));
  });
  const signIn = () => run(async () => {
    const { options } = await api.passkeyBegin("signin");
    const got = await navigator.credentials.get({ publicKey: {
      ...options, challenge: bytes(options.challenge), allowCredentials: descriptors(options.allowCredentials) } });
    const body = await api.passkeyFinish("signin", credentialJson(got));
    onSignedIn(body);
    setDone(t("passkey_signed_in", body.profile.name || "—"));
    await load();
  });
  const remove = (id) => run(async () => setKeys((await api.passkeyRemove(id)).passkeys));
  if (!secure) {
    return html`<section class="panel" data-testid="passkeys">
      <h2>${t("passkey_title")}</h2>
      <p class="muted" data-testid="passkey-insecure">${t(why)}</p>
    </section>`;
  }
  return html`<section class="panel" data-testid="passkeys">
    <h2>${t("passkey_title")}</h2>
    <p class="muted small">${t("passkey_note")}</p>
    ${keys && keys.length ? html`<ul class="passkeys">${keys.map((key) => html`<li data-testid="passkey">
      <span class="muted small">${t("passkey_added_on", new Date(key.created_at * 1000).toLocaleDateString())}</span>
      <button class="small subtle" disabled=${busy} onClick=${() => remove(key.id)} data-testid="passkey-remove">${t("passkey_remove")}</button>
    </li>`)}</ul>` : html`<p class="muted small" data-testid="passkey-none">${t("passkey_none")}</p>`}
    <button class="small" disabled=${busy} onClick=${add} data-testid="passkey-add">${t("passkey_add")}</button>
    <button class="small subtle" disabled=${busy} onClick=${signIn} data-testid="passkey-signin">${t("passkey_signin")}</button>
    ${done ? html`<p class="muted" role="status" data-testid="passkey-done">${done}</p>` : null}
    ${problem ? html`<div class="error" role="alert" data-testid="passkey-error">${problem.key ? t(problem.key) : tr(problem)}</div>` : null}
  </section>`;
}
