/**
 * Copies `text` with the Clipboard API; where that is missing or refused (a page served over
 * plain HTTP from another machine, an old browser), selects the field's text and tries the
 * older copy command. Answers whether the text reached the clipboard; the field's text is
 * selected either way, so Ctrl+C finishes the job.
 */
export async function copyText(
  text: string,
  field: HTMLInputElement | HTMLTextAreaElement | null,
): Promise<boolean> {
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission, no focus): fall back to the selection.
  }
  if (!field) return false;
  field.focus();
  field.select();
  try {
    // Deprecated but still the only synchronous copy where the Clipboard API is unavailable.
    return document.execCommand('copy');
  } catch {
    return false;
  }
}
