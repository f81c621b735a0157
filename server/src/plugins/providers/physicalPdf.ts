/**
 * The physical-exam report as the sandbox centre issues it: a real PDF (pdf-lib) with the summary, each department's
 * findings and the chief doctor's conclusion. Chinese needs a CJK font: the one named by REPORT_FONT_FILE, by default
 * WenQuanYi Micro Hei of the Debian package fonts-wqy-microhei (a TrueType collection); only the glyphs used are
 * embedded. A missing font is an error that names the file and the package, never a report with blank text.
 */
import { readFile } from 'node:fs/promises'
import fontkit from '@pdf-lib/fontkit'
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib'
import type { HisPhysicalReport } from './hisPhysical'

export const DEFAULT_REPORT_FONT = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc'

let fontBytes: Promise<Uint8Array> | null = null

function reportFont(): Promise<Uint8Array> {
  const file = process.env.REPORT_FONT_FILE || DEFAULT_REPORT_FONT
  fontBytes ??= readFile(file).then(
    (b) => new Uint8Array(b),
    (err: NodeJS.ErrnoException) => {
      fontBytes = null
      throw new Error(`physical-exam report font ${file} cannot be read (${err.code}): install the Debian package fonts-wqy-microhei or set REPORT_FONT_FILE to a TrueType font with Chinese`)
    },
  )
  return fontBytes
}

/** fontkit as pdf-lib uses it, opening the first font of a collection (.ttc) as well as a single font. */
const fontkitFirstFace = {
  create(buffer: Uint8Array) {
    const font = fontkit.create(buffer as Buffer) as unknown as { fonts?: unknown[] }
    return (font.fonts ? font.fonts[0] : font) as ReturnType<typeof fontkit.create>
  },
}

const A4 = { width: 595.28, height: 841.89 }
const MARGIN = 48
const INK = rgb(0.13, 0.13, 0.13)
const GREY = rgb(0.45, 0.45, 0.45)
const ALERT = rgb(0.72, 0.1, 0.1)
const RULE = rgb(0.8, 0.8, 0.8)

/** Lines of at most `width` points: Chinese breaks anywhere, so measure character by character. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const ch of text) {
    if (font.widthOfTextAtSize(line + ch, size) > width && line) {
      lines.push(line)
      line = ''
    }
    line += ch
  }
  if (line) lines.push(line)
  return lines.length ? lines : ['']
}

/** The report's PDF. */
export async function physicalReportPdf(report: HisPhysicalReport): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  doc.registerFontkit(fontkitFirstFace as unknown as Parameters<PDFDocument['registerFontkit']>[0])
  const font = await doc.embedFont(await reportFont(), { subset: true })
  doc.setTitle(`体检报告 ${report.examNo}`)
  doc.setSubject(report.packageName)
  doc.setCreator('体检中心')

  const usable = A4.width - MARGIN * 2
  let page: PDFPage = doc.addPage([A4.width, A4.height])
  let y = A4.height - MARGIN
  const newPage = () => {
    page = doc.addPage([A4.width, A4.height])
    y = A4.height - MARGIN
  }
  const write = (text: string, opts: { size?: number; color?: ReturnType<typeof rgb>; indent?: number; gap?: number } = {}) => {
    const size = opts.size ?? 11
    const indent = opts.indent ?? 0
    for (const line of wrap(text, font, size, usable - indent)) {
      if (y - size < MARGIN) newPage()
      y -= size * 1.5
      page.drawText(line, { x: MARGIN + indent, y, size, font, color: opts.color ?? INK })
    }
    y -= opts.gap ?? 0
  }
  const rule = () => {
    y -= 6
    page.drawLine({ start: { x: MARGIN, y }, end: { x: A4.width - MARGIN, y }, thickness: 0.6, color: RULE })
    y -= 4
  }

  write('健康体检报告', { size: 20, gap: 6 })
  write(`姓名：${report.patientName}　　性别：${report.sex === 1 ? '男' : '女'}　　年龄：${report.age}岁`, { size: 12 })
  write(`体检编号：${report.examNo}　　体检日期：${report.examDate}`, { size: 12 })
  write(`体检套餐：${report.packageName}`, { size: 12 })
  rule()

  write('一、体检结果汇总', { size: 14, gap: 2 })
  for (const s of report.summary) write(s, { indent: 12 })
  rule()

  write('二、各科检查结果', { size: 14, gap: 2 })
  let dept = ''
  for (const f of report.findings) {
    if (f.dept !== dept) {
      dept = f.dept
      write(`【${dept}】`, { size: 12, gap: 0 })
    }
    write(`${f.item}：${f.result}${f.abnormal ? '（异常，需关注）' : ''}`, { indent: 12, color: f.abnormal ? ALERT : INK })
    if (f.doctor) write(`检查医师：${f.doctor}`, { indent: 12, size: 9, color: GREY })
  }
  rule()

  write('三、主检结论', { size: 14, gap: 2 })
  write(report.conclusion, { indent: 12 })
  write('健康建议：', { size: 12 })
  for (const a of report.advice) write(`· ${a}`, { indent: 12 })
  rule()
  write(`${report.chiefDoctor}　　报告日期：${report.reportedAt.slice(0, 10)}`, { size: 11 })
  write('本报告仅对本次体检负责，如有疑问请咨询体检中心。', { size: 9, color: GREY })

  const pages = doc.getPages()
  pages.forEach((p, i) => p.drawText(`第 ${i + 1} 页 / 共 ${pages.length} 页`, { x: A4.width / 2 - 30, y: 24, size: 9, font, color: GREY }))
  return doc.save()
}
