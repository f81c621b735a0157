import { useEffect, useRef, useState } from 'react'
import { View, Text } from '@tarojs/components'
import Tappable from '@/components/Tappable'
import { LoadFailed, Loading } from '@/components/Empty'
import './PdfViewer.scss'

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs')
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>

/**
 * pdf.js and its worker: Mozilla's own minified ES modules, emitted as files of this build (webpack's `new URL`) and
 * loaded by this page only, never from another site. They are kept out of the app's bundler and minifier, which would
 * rewrite their class fields into invalid code.
 */
async function loadPdfJs(): Promise<PdfJs> {
  // @ts-expect-error import.meta.url is webpack's (the app's TypeScript module setting does not know it)
  const libraryUrl = new URL('pdfjs-dist/legacy/build/pdf.min.mjs', import.meta.url)
  // @ts-expect-error as above
  const workerUrl = new URL('pdfjs-dist/legacy/build/pdf.worker.min.mjs', import.meta.url)
  const pdfjs = (await import(/* webpackIgnore: true */ String(libraryUrl))) as PdfJs
  if (!pdfjs.GlobalWorkerOptions.workerPort) pdfjs.GlobalWorkerOptions.workerPort = new Worker(workerUrl, { type: 'module' })
  return pdfjs
}

const MIN_ZOOM = 1
const MAX_ZOOM = 3

/**
 * A PDF drawn page by page on a canvas as wide as the phone, sharp on its screen: 上一页 / 下一页, 放大 / 缩小 (and
 * the browser's own pinch), the page number read out.
 */
export default function PdfViewer({ load }: { load: () => Promise<ArrayBuffer> }) {
  const host = useRef<HTMLDivElement | null>(null)
  const [doc, setDoc] = useState<PdfDocument | null>(null)
  const [state, setState] = useState<'loading' | 'failed' | 'ready'>('loading')
  const [page, setPage] = useState(1)
  const [zoom, setZoom] = useState(1)
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    let alive = true
    let opened: PdfDocument | null = null
    setState('loading')
    void (async () => {
      try {
        const [pdfjs, bytes] = await Promise.all([loadPdfJs(), load()])
        opened = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise
        if (!alive) return void opened.destroy()
        setDoc(opened)
        setPage(1)
        setState('ready')
      } catch {
        if (alive) setState('failed')
      }
    })()
    return () => {
      alive = false
      void opened?.destroy()
    }
    // load is the page's own: a retry asks again
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attempt])

  useEffect(() => {
    const box = host.current
    if (!doc || !box) return
    let cancelled = false
    let task: { cancel(): void; promise: Promise<unknown> } | null = null
    void (async () => {
      const p = await doc.getPage(page)
      if (cancelled) return
      const width = box.clientWidth || window.innerWidth
      const base = p.getViewport({ scale: 1 })
      const scale = (width / base.width) * zoom
      const ratio = window.devicePixelRatio || 1
      const viewport = p.getViewport({ scale: scale * ratio })
      const canvas = document.createElement('canvas')
      canvas.width = Math.floor(viewport.width)
      canvas.height = Math.floor(viewport.height)
      canvas.style.width = `${Math.floor(viewport.width / ratio)}px`
      canvas.style.height = `${Math.floor(viewport.height / ratio)}px`
      canvas.setAttribute('role', 'img')
      canvas.setAttribute('aria-label', `PDF报告第${page}页`)
      const context = canvas.getContext('2d')
      if (!context) return
      task = p.render({ canvasContext: context, viewport })
      try {
        await task.promise
      } catch {
        return
      }
      if (cancelled) return
      box.replaceChildren(canvas)
      box.scrollTop = 0
    })()
    return () => {
      cancelled = true
      task?.cancel()
    }
  }, [doc, page, zoom])

  if (state === 'failed') return <LoadFailed text='PDF报告加载失败' onRetry={() => setAttempt((n) => n + 1)} />
  const pages = doc?.numPages ?? 0
  return (
    <View className='pdf-viewer'>
      {state === 'loading' && <Loading />}
      <div ref={host} className='pdf-viewer__page' />
      {state === 'ready' && (
        <View className='pdf-viewer__bar'>
          <Tappable className='pdf-viewer__button' disabled={page <= 1} onTap={() => setPage((n) => Math.max(1, n - 1))}>
            上一页
          </Tappable>
          <Tappable className='pdf-viewer__button' label='缩小' disabled={zoom <= MIN_ZOOM} onTap={() => setZoom((z) => Math.max(MIN_ZOOM, z - 0.5))}>
            －
          </Tappable>
          <View className='pdf-viewer__count' role='status'>
            <Text>
              {page} / {pages}
            </Text>
          </View>
          <Tappable className='pdf-viewer__button' label='放大' disabled={zoom >= MAX_ZOOM} onTap={() => setZoom((z) => Math.min(MAX_ZOOM, z + 0.5))}>
            ＋
          </Tappable>
          <Tappable className='pdf-viewer__button' disabled={page >= pages} onTap={() => setPage((n) => Math.min(pages, n + 1))}>
            下一页
          </Tappable>
        </View>
      )}
    </View>
  )
}
