import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { removeStaleTemplates } from '../seedTemplate'

describe('removeStaleTemplates (the test databases’ templates, test/seedTemplate.ts)', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'templates-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  /** A template folder `name` last written `hoursAgo` hours ago. */
  const template = (name: string, hoursAgo: number) => {
    const path = join(dir, name)
    mkdirSync(path)
    const at = new Date(Date.now() - hoursAgo * 3_600_000)
    utimesSync(path, at, at)
    return path
  }

  test('removes templates of other keys older than an hour; keeps the new one, young ones and what is not a template', () => {
    const keep = template('new', 5)
    template('old', 2)
    template('young', 0)
    template('other', 2)
    removeStaleTemplates(dir, keep, (name) => name !== 'other')
    expect(readdirSync(dir).sort()).toEqual(['new', 'other', 'young'])
  })

  test('passes by a template that is gone by the time it is looked at (another test process renamed it meanwhile)', () => {
    const keep = template('new', 0)
    template('building-a', 2)
    template('old', 2)
    // the folder goes between the listing and the look at its age
    const vanishing = (name: string) => {
      if (name === 'building-a') rmSync(join(dir, name), { recursive: true })
      return true
    }
    expect(() => removeStaleTemplates(dir, keep, vanishing)).not.toThrow()
    expect(readdirSync(dir)).toEqual(['new'])
  })
})
