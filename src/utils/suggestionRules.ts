import type { SuggestionKind } from '../../types/api/suggestion'

/** 投诉建议: the words' length (the server checks the same, server/src/domain/suggestion.ts), and the pictures. */
export const SUGGESTION_MIN = 5
export const SUGGESTION_MAX = 500
export const SUGGESTION_PICTURES_MAX = 4

export const SUGGESTION_KINDS: { value: SuggestionKind; label: string }[] = [
  { value: 'complaint', label: '投诉' },
  { value: 'suggestion', label: '建议' },
  { value: 'praise', label: '表扬' },
]

export const kindLabel = (kind: SuggestionKind) => SUGGESTION_KINDS.find((k) => k.value === kind)?.label ?? ''

/** What is missing before anything is sent, in the words the server would refuse with; null when nothing is. */
export function suggestionProblem(content: string): string | null {
  const text = content.trim()
  if (text.length < SUGGESTION_MIN) return `请至少填写${SUGGESTION_MIN}个字`
  if (text.length > SUGGESTION_MAX) return `内容不能超过${SUGGESTION_MAX}个字`
  return null
}
