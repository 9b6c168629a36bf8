// Copying a link for the player. The Clipboard API exists only in a secure context (https, or this very
// machine: localhost, 127.0.0.1); a room reached over plain http at a LAN address has none, so there the
// link is selected in its field for the player to copy with the keyboard (or the phone's menu).

/** Copies `text`: "copied"; or, where the page may not, selects it in `input`: "by_hand". */
export async function copyOrSelect(text, input) {
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
    input.setSelectionRange(0, input.value.length);
  }
  return "by_hand";
}
