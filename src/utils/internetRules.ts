/**
 * The internet hospital's limits and refusals that the app checks before it asks and the server enforces
 * (server/src/domain/inquiry.ts, evaluation.ts, gift.ts): one copy for both sides.
 */

/** A consultation's description of the illness, in characters, and how many pictures it may carry. */
export const DESCRIPTION_MAX = 500
export const PICTURES_MAX = 9
/** How long an unpaid consultation's order stays open. */
export const INQUIRY_PAY_MINUTES = 30
/** A paid consultation no doctor has accepted closes (and is refunded) this long after payment. */
export const WAIT_HOURS = 48
/** An accepted consultation's service lasts this long after acceptance. */
export const SERVICE_HOURS = 24

/** A rating is 1 to SCORE_MAX stars; GOOD_SCORE or more counts as good (好评) and offers the good tags. */
export const SCORE_MAX = 5
export const GOOD_SCORE = 4
/** The words of a rating, in characters. */
export const EVALUATION_CONTENT_MAX = 200
export const BAD_SCORE = '请选择1至5星评分'

/** The message sent with a gift (心意), in characters, and how long an unpaid gift's order stays open. */
export const GIFT_MESSAGE_MAX = 50
export const GIFT_PAY_MINUTES = 30
