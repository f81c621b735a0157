/**
 * The accessibility check of the browser tests: axe-core with the WCAG 2.2 A and AA rules on the page on show (Taro's
 * H5 router keeps the pages below it in the DOM, hidden; they are left out).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'

const AXE_SOURCE = readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8')

/** The rule sets run: WCAG 2.0, 2.1 and 2.2 at levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa']

export type Impact = 'critical' | 'serious' | 'moderate' | 'minor'

export interface Violation {
  page: string
  rule: string
  impact: Impact
  help: string
  /** Where, as CSS selectors, with the first element's HTML. */
  targets: string[]
  html: string
}

/** Runs axe on the visible page (and anything shown over it: a modal, a toast) and answers its violations. */
export async function audit(page: Page, name: string): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE })
  // a toast fading in or out (Taro's fades over 0.1 s) would be read at part of its contrast: what moves settles first
  // (an endless animation, a spinner, is left to run; 2 s at most)
  await page.evaluate(async () => {
    await new Promise((r) => setTimeout(r, 0))
    const moving = document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity)
    await Promise.race([Promise.all(moving.map((a) => a.finished.catch(() => undefined))), new Promise((r) => setTimeout(r, 2000))])
  })
  const found = await page.evaluate(async (tags) => {
    const shown = [...document.querySelectorAll<HTMLElement>('.taro_page')].filter((p) => p.offsetParent !== null || getComputedStyle(p).display !== 'none')
    document.querySelectorAll('[data-axe-hidden]').forEach((e) => e.removeAttribute('data-axe-hidden'))
    const hidden = [...document.querySelectorAll<HTMLElement>('.taro_page')].filter((p) => !shown.includes(p))
    hidden.forEach((p) => p.setAttribute('data-axe-hidden', ''))
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[]; html: string }[] }[] }> } }).axe
    const result = await axe.run({ include: [['body']], exclude: [['[data-axe-hidden]']] }, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
    return result.violations.map((v) => ({ rule: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')), html: v.nodes[0]?.html ?? '' }))
  }, WCAG_TAGS)
  return found.map((v) => ({ ...v, page: name, impact: v.impact as Impact }))
}

/** Counts per impact, for the note and the failure message. */
export function countByImpact(violations: Violation[]): Record<Impact, number> {
  const counts: Record<Impact, number> = { critical: 0, serious: 0, moderate: 0, minor: 0 }
  for (const v of violations) counts[v.impact] += v.targets.length
  return counts
}

/** A readable list of violations: page, rule, impact, the first few elements. */
export function describeViolations(violations: Violation[]): string {
  return violations.map((v) => `${v.page}: ${v.rule} (${v.impact}) ${v.help}\n    ${v.targets.slice(0, 4).join('\n    ')}\n    ${v.html.slice(0, 200)}`).join('\n')
}

/** Asserts no critical or serious WCAG 2.2 A/AA violation on the page as it is. */
export async function assertAccessible(page: Page, name: string): Promise<void> {
  const blocking = (await audit(page, name)).filter((v) => v.impact === 'critical' || v.impact === 'serious')
  assert.deepEqual(blocking, [], `${name}: critical or serious violations:\n${describeViolations(blocking)}`)
}
