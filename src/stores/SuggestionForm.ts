import { makeAutoObservable, runInAction } from 'mobx'
import * as api from '@/services/suggestion'
import { toastError, toastSuccess } from '@/ui/feedback'
import { IdempotentAttempt } from './base/IdempotentAttempt'
import { Loadable } from './base/Loadable'
import { PictureList } from './base/PictureList'
import { SUGGESTION_MAX, SUGGESTION_PICTURES_MAX, suggestionProblem } from '@/utils/suggestionRules'
import type { Suggestion, SuggestionKind } from '../../types/api/suggestion'

export const SENT_TEXT = '提交成功'

/**
 * 投诉建议 (spec §2 /pages/comment/index): page-local. The kind, the words and up to 4 pictures of one submission
 * (one idempotency key per attempt: a retry after no answer is the same submission), and the caller's earlier ones
 * with the hospital's answers.
 */
export class SuggestionForm {
  kind: SuggestionKind = 'complaint'
  content = ''
  readonly photos = new PictureList(SUGGESTION_PICTURES_MAX)
  readonly attempt = new IdempotentAttempt()
  readonly mine = new Loadable((hospitalCode: string) => api.listMySuggestions(hospitalCode))

  constructor() {
    makeAutoObservable(this, { photos: false, attempt: false, mine: false })
  }

  setKind(kind: SuggestionKind) {
    this.kind = kind
  }

  setContent(text: string) {
    this.content = text.slice(0, SUGGESTION_MAX)
  }

  /** Sends it; on success the form is empty again and the list shows it first. Answers whether it was sent. */
  async submit(hospitalCode: string): Promise<boolean> {
    if (this.attempt.inFlight) return false
    if (this.photos.uploading) {
      toastError('图片上传中')
      return false
    }
    const problem = suggestionProblem(this.content)
    if (problem) {
      toastError(problem)
      return false
    }
    let sent: Suggestion
    try {
      sent = await this.attempt.run((idempotencyKey) =>
        api.submitSuggestion({ hospitalCode, kind: this.kind, content: this.content.trim(), pictures: this.photos.urls, idempotencyKey }),
      )
    } catch {
      // the request layer has shown why
      return false
    }
    runInAction(() => {
      this.content = ''
      this.photos.clear()
      this.attempt.renew()
      if (this.mine.value) this.mine.value = [sent, ...this.mine.value.filter((s) => s.id !== sent.id)]
    })
    toastSuccess(SENT_TEXT)
    return true
  }
}
