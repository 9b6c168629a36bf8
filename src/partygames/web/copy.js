// Handing the share link on. Where the system share sheet exists (`navigator.share`: phones, in a secure
// context) it is offered; else the Clipboard API, which exists only in a secure context (https, or this
// very machine: localhost, 127.0.0.1); a room reached over plain http at a LAN address has neither, so there
// the link is selected in its field, from its start, with words the reader can follow: on a touch screen
// "touch and hold", with a keyboard Ctrl+C.

/** Whether the system share sheet may be offered for a link. */
export function canShare() {
  return typeof navigator.share === "function" && (!navigator.canShare || navigator.canShare({ url: location.href }));
}

/** Whether the reader points with a finger (a phone): no keyboard shortcut to tell them. */
export const touchScreen = () => typeof window.matchMedia === "function" && window.matchMedia("(pointer: coarse)").matches;

/** Shares or copies `text`: "shared" (the share sheet took it), null (the reader closed the sheet),
 * "copied"; or, where the page may do neither, selects it in `input`: "by_hand" or, on a touch screen,
 * "by_touch". */
export async function copyOrSelect(text, input, title = "") {
  if (canShare()) {
    try {
      await navigator.share({ url: text, title });
      return "shared";
    } catch (error) {
      if (error && error.name === "AbortError") return null;
      // Refused otherwise: copy it instead.
    }
  }
  if (window.isSecureContext && navigator.clipboard) {
    try {
      await navigator.clipboard.writeText(text);
      return "copied";
    } catch {
      // Refused (no permission, the page not focused): the player copies it.
    }
  }
  if (input) {
    input.focus();
    // Selected backwards, so that the field shows the link's start (its address), not its end.
    input.setSelectionRange(0, input.value.length, "backward");
    input.scrollLeft = 0;
  }
  return touchScreen() ? "by_touch" : "by_hand";
}
