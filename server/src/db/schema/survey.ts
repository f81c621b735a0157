import { index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { createdAt, hospitals, users } from './core'
import type { SurveyQuestion } from '../../../../types/api/survey'

/**
 * A hospital's satisfaction survey (满意度调查, spec §7 Surveys). The questions are part of the survey and change only
 * with it (a new survey, not an edit, once answers exist), so they are kept with it as one JSON list.
 */
export const surveys = pgTable(
  'surveys',
  {
    id: serial('id').primaryKey(),
    hospitalId: integer('hospital_id')
      .notNull()
      .references(() => hospitals.id),
    title: text('title').notNull(),
    intro: text('intro').notNull().default(''),
    questions: jsonb('questions').$type<SurveyQuestion[]>().notNull(),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('surveys_hospital_idx').on(t.hospitalId, t.sort), uniqueIndex('surveys_hospital_title_key').on(t.hospitalId, t.title)],
)

/**
 * One account's answer to one survey (a survey asks about the caller's own visit, not about one of their patients):
 * the unique index is the last line of defence against a second answer. Choices and ratings are plain (staff count
 * them); the free words are personal data and are kept encrypted (`textsEnc`: the JSON of question id → words).
 */
export const surveyAnswers = pgTable(
  'survey_answers',
  {
    id: serial('id').primaryKey(),
    surveyId: integer('survey_id')
      .notNull()
      .references(() => surveys.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** question id → option ids (single, multiple), the stars given (rating), or true for words given (text). */
    choices: jsonb('choices').$type<Record<string, string[] | number | true>>().notNull(),
    textsEnc: text('texts_enc'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('survey_answers_survey_user_key').on(t.surveyId, t.userId), index('survey_answers_survey_idx').on(t.surveyId, t.createdAt)],
)
