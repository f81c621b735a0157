/**
 * Hospital-supplied rich text (articles, the hospital's introduction and guides): HTML that the app shows with
 * RichText, so it must never carry a script, an event handler, a style that hides or overlays, a frame or a form.
 * Sanitised with sanitize-html on the way in (stored) and on the way out (shown), so that what was stored before a
 * rule tightened is shown by the rule of today.
 *
 * The allow-list is what an article or a guide needs: paragraphs, headings, lists, tables, emphasis, pictures and
 * links. Links and pictures go to https (or this server's own paths); a link opens outside only through the app's
 * web-view allow-list, which RichText does not bypass (it draws links as text on the mini-programs).
 */
import sanitizeHtml from 'sanitize-html'

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'h2', 'h3', 'h4', 'strong', 'b', 'em', 'i', 'u', 'ul', 'ol', 'li', 'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'img', 'a', 'span', 'div', 'hr'],
  allowedAttributes: { a: ['href', 'title'], img: ['src', 'alt', 'width', 'height'], td: ['colspan', 'rowspan'], th: ['colspan', 'rowspan'] },
  allowedSchemes: ['https'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // content inside removed tags (a script's code) is dropped, not shown as text
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed'],
  disallowedTagsMode: 'discard',
}

/** The HTML with only the allowed tags, attributes and https links left. */
export const sanitizeRichText = (html: string): string => sanitizeHtml(html, OPTIONS)

/** textConfig keys holding rich text end in `Html` (introduceHtml, guideHtml); the others are plain text. */
export const isRichTextKey = (key: string) => key.endsWith('Html')
