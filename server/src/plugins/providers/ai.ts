import type { Config } from '../../config'

/**
 * An AI model behind an OpenAI-compatible chat endpoint (智能导诊's doctor AI agent). The provider only carries the
 * conversation: what to ask, and every check of the answer, belong to the domain (domain/triage.ts), which also
 * answers with its built-in rules when there is no model or it fails.
 */
export interface AiProvider {
  readonly kind: 'offline' | 'model'
  /** The model's name, for the log ('' without one). */
  readonly model: string
  /** The model's reply to the instructions and the patient's words; throws AiFailure. */
  chat(system: string, user: string): Promise<string>
}

/** A failure whose message is safe to log: it never carries what the patient or the model wrote. */
export class AiFailure extends Error {}

/** No model configured: the domain's rules answer everything. */
export function noModel(): AiProvider {
  return {
    kind: 'offline',
    model: '',
    async chat() {
      throw new AiFailure('no model is configured')
    },
  }
}

/** A model that has not answered by then is given up on, and the rules answer. */
export const MODEL_TIMEOUT_MS = 15_000

/** The part of an OpenAI-compatible chat completion used here. */
function replyOf(body: unknown): string | null {
  const content = (body as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message?.content
  return typeof content === 'string' ? content : null
}

/** An OpenAI-compatible chat endpoint: `POST {baseUrl}/chat/completions`, one system and one user message. */
export function openAiCompatibleModel(cfg: NonNullable<Config['ai']>, opts: { timeoutMs?: number } = {}): AiProvider {
  const url = `${cfg.baseUrl.replace(/\/+$/, '')}/chat/completions`
  const timeoutMs = opts.timeoutMs ?? MODEL_TIMEOUT_MS
  return {
    kind: 'model',
    model: cfg.model,
    async chat(system, user) {
      let res: Response
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {}) },
          body: JSON.stringify({
            model: cfg.model,
            temperature: 0.2,
            max_tokens: 600,
            messages: [
              { role: 'system', content: system },
              { role: 'user', content: user },
            ],
          }),
          signal: AbortSignal.timeout(timeoutMs),
        })
      } catch (err) {
        if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) throw new AiFailure(`no answer within ${timeoutMs} ms`)
        const code = (err as { cause?: { code?: unknown } })?.cause?.code
        throw new AiFailure(`the request failed${typeof code === 'string' ? ` (${code})` : ''}`)
      }
      if (!res.ok) throw new AiFailure(`the endpoint answered HTTP ${res.status}`)
      const reply = replyOf(
        await res.json().catch((err: unknown) => {
          if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) throw new AiFailure(`no answer within ${timeoutMs} ms`)
          return null
        }),
      )
      if (reply === null) throw new AiFailure('the endpoint answered no chat completion')
      return reply
    },
  }
}
