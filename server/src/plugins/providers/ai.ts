import type { FastifyBaseLogger } from 'fastify'
import { z } from 'zod'
import type { Config } from '../../config'
import {
  MAX_DEPARTMENTS,
  emergencySuggestion,
  mentionsMedicine,
  offlineSuggestion,
  type TriageCatalogue,
  type TriageSuggestion,
} from '../../domain/triage'

/**
 * The doctor AI agent's answer to a complaint (智能导诊, `/dld-palm/api/ai/triage`). Never throws: a provider that
 * cannot answer answers with the built-in rules.
 */
export interface AiTriageProvider {
  readonly kind: 'offline' | 'model'
  /** `log` is the request's logger; nothing the patient wrote is logged. */
  suggest(text: string, catalogue: TriageCatalogue, log: FastifyBaseLogger): Promise<TriageSuggestion>
}

/** The built-in rules (domain/triage.ts): no network, the default. */
export function offlineTriage(): AiTriageProvider {
  return {
    kind: 'offline',
    async suggest(text, catalogue) {
      return offlineSuggestion(text, catalogue)
    },
  }
}

/** A model that has not answered by then is given up on, and the rules answer. */
export const MODEL_TIMEOUT_MS = 15_000

/** What the model is asked to answer (see systemPrompt). */
const modelAnswer = z.object({
  departments: z
    .array(z.object({ name: z.string().trim().min(1).max(50), reason: z.string().trim().max(200).optional() }))
    .max(10),
  emergency: z.boolean(),
  reply: z.string().trim().min(1).max(600),
})

/** The part of an OpenAI-compatible chat completion used here. */
const completion = z.object({ choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1) })

/** The instructions: the hospital's departments to choose from, the rules, and JSON only. */
export function systemPrompt(c: TriageCatalogue): string {
  return [
    `你是${c.hospitalName}的智能导诊助手，只根据患者描述的症状推荐本院的就诊科室。你不是医生，不做诊断。`,
    `本院可预约的科室只有：${c.departments.map((d) => d.name).join('、')}。`,
    '规则：',
    `1. departments 只能从上面的科室中选择1至${MAX_DEPARTMENTS}个，最相关的在前，每个附一句不超过30字的理由 reason。`,
    '2. 绝不推荐或提及任何药品名称、用药剂量或治疗方案；不要自称医生。',
    '3. 如有危及生命的表现（如胸痛伴大汗或呼吸困难、昏迷、大出血、抽搐、自杀念头），emergency 为 true，reply 请患者立即前往急诊或拨打120。',
    '4. reply 是给患者的一段话，不超过150字，使用简体中文。',
    '只输出一个 JSON 对象，不要输出任何其他文字或代码块标记，格式为：',
    '{"departments":[{"name":"科室名称","reason":"理由"}],"emergency":false,"reply":"给患者的回复"}',
  ].join('\n')
}

/** A failure whose message is safe to log: it never carries what the patient or the model wrote. */
class ModelFailure extends Error {}

/** The JSON object in a reply, even when the model wrapped it in a code fence or a sentence. */
function jsonObjectOf(content: string): unknown {
  const start = content.indexOf('{')
  const end = content.lastIndexOf('}')
  if (start < 0 || end <= start) throw new ModelFailure('the reply holds no JSON object')
  try {
    return JSON.parse(content.slice(start, end + 1))
  } catch {
    // JSON.parse quotes the text it failed on
    throw new ModelFailure('the reply is not valid JSON')
  }
}

/** Why a call failed, in words that hold nothing of the conversation. */
function failureReason(err: unknown, timeoutMs: number): string {
  if (err instanceof ModelFailure) return err.message
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return `no answer within ${timeoutMs} ms`
  const code = (err as { cause?: { code?: unknown } })?.cause?.code
  return `the request failed${typeof code === 'string' ? ` (${code})` : ''}`
}

/**
 * An OpenAI-compatible chat endpoint (`POST {baseUrl}/chat/completions`): the model picks among the hospital's
 * departments and answers JSON. Its answer is checked like the rules' own: departments the hospital does not have
 * are dropped, a red flag becomes the fixed emergency answer, and a reply that names a medicine or a dose, or that
 * is not the JSON asked for, or that arrives after 15 s, is replaced by the rules' answer.
 */
export function openAiCompatibleTriage(cfg: NonNullable<Config['ai']>, opts: { timeoutMs?: number } = {}): AiTriageProvider {
  const url = `${cfg.baseUrl.replace(/\/+$/, '')}/chat/completions`
  const timeoutMs = opts.timeoutMs ?? MODEL_TIMEOUT_MS

  async function ask(text: string, c: TriageCatalogue): Promise<TriageSuggestion> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {}) },
      body: JSON.stringify({
        model: cfg.model,
        temperature: 0.2,
        max_tokens: 600,
        messages: [
          { role: 'system', content: systemPrompt(c) },
          { role: 'user', content: text },
        ],
      }),
      signal: AbortSignal.timeout(timeoutMs),
    })
    if (!res.ok) throw new ModelFailure(`the endpoint answered HTTP ${res.status}`)
    const body = completion.safeParse(await res.json().catch(() => null))
    if (!body.success) throw new ModelFailure('the endpoint answered no chat completion')
    const answer = modelAnswer.safeParse(jsonObjectOf(body.data.choices[0]!.message.content))
    if (!answer.success) throw new ModelFailure('the reply is not the JSON asked for')
    if (answer.data.emergency) return emergencySuggestion(c, 'model')

    const byName = new Map(c.departments.map((d) => [d.name, d]))
    const departments: TriageSuggestion['departments'] = []
    for (const d of answer.data.departments) {
      const dept = byName.get(d.name)
      if (!dept || departments.some((x) => x.deptId === dept.id)) continue
      departments.push({ deptId: dept.id, reason: d.reason || `建议就诊${dept.name}` })
      if (departments.length === MAX_DEPARTMENTS) break
    }
    if (departments.length === 0) throw new ModelFailure('the reply names none of the hospital’s departments')
    if (mentionsMedicine([answer.data.reply, ...departments.map((d) => d.reason)].join('\n'))) {
      throw new ModelFailure('the reply mentions a medicine or a dose')
    }
    return { reply: answer.data.reply, emergency: false, departments, source: 'model' }
  }

  return {
    kind: 'model',
    async suggest(text, catalogue, log) {
      try {
        return await ask(text, catalogue)
      } catch (err) {
        log.warn({ aiModel: cfg.model, reason: failureReason(err, timeoutMs) }, 'AI triage model failed; answered with the built-in rules')
        return offlineSuggestion(text, catalogue)
      }
    },
  }
}
