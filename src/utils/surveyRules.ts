/**
 * Rules of satisfaction surveys that the app and the server share (server/src/domain/survey.ts).
 */

/** Stars of a rating question: 1 to 5. */
export const SURVEY_RATING_MAX = 5

/** The longest a text question's limit may be set. */
export const SURVEY_TEXT_MAX = 500

/**
 * The length of a text answer as its box counts it (CountedTextarea shows `value.length` and stops at `maxlength`),
 * so the count the patient sees and the server's limit agree.
 */
export function surveyTextLength(text: string): number {
  return text.length
}

/** What each number of stars means. */
export const SURVEY_RATING_TEXT = ['', '非常不满意', '不满意', '一般', '满意', '非常满意'] as const
