/** Text a page shows (a name, an email, an error's words) as HTML reads it back as that same text:
 * each character that could open a tag, start a reference or end an attribute's quotes is written as
 * a character reference, so a value carrying markup is shown, never run. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
