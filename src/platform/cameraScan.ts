/**
 * 扫一扫 in a plain mobile browser (neither WeChat's nor Alipay's): the rear camera through getUserMedia in a full-screen
 * layer of its own, each frame decoded with jsQR, a 取消 button, and a clear message when the camera is refused or
 * missing. index.h5.ts imports this file (and jsQR with it) as a chunk of its own the first time the patient taps
 * 扫一扫: never in the first load. Typing the code stays the fallback on the page that asked.
 */
import jsQR from 'jsqr'

/** Said in the scanner while the camera looks for a code. */
export const AIM_TEXT = '将二维码放入框内，即可自动扫描'
/** Said when the patient (or the browser's setting) refused the camera. */
export const CAMERA_REFUSED = '未获得相机权限，无法扫码。请在浏览器设置中允许本网页使用相机后重试，或关闭后手动输入。'
/** Said when the phone has no camera the browser can use (or another app holds it). */
export const CAMERA_UNAVAILABLE = '无法打开相机，请关闭后手动输入。'

/** Frames are decoded at most this wide: enough for a bill's code held at arm's length, cheap on an old phone. */
const DECODE_WIDTH = 640
/** Time between two decodes, in ms: the phone stays cool and responsive. */
const DECODE_EVERY_MS = 120

export interface RgbaImage {
  data: Uint8ClampedArray
  width: number
  height: number
}

/** The text of the QR code in an image, or null when it holds none that can be read. */
export function decodeQr(image: RgbaImage): string | null {
  const code = jsQR(image.data, image.width, image.height, { inversionAttempts: 'attemptBoth' })
  return code && code.data ? code.data : null
}

function refusalText(err: unknown): string {
  const name = err && typeof err === 'object' && 'name' in err ? String((err as { name: unknown }).name) : ''
  return name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError' ? CAMERA_REFUSED : CAMERA_UNAVAILABLE
}

/** The layer: the camera's picture, a frame to aim with, what is happening in words, and 取消. Styled inline, on the design tokens. */
function buildLayer(doc: Document) {
  const layer = doc.createElement('div')
  layer.className = 'camera-scan'
  layer.setAttribute('role', 'dialog')
  layer.setAttribute('aria-modal', 'true')
  layer.setAttribute('aria-label', '扫一扫')
  Object.assign(layer.style, {
    position: 'fixed',
    inset: '0',
    zIndex: '10000',
    background: '#000',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
  } satisfies Partial<CSSStyleDeclaration>)

  const video = doc.createElement('video')
  video.setAttribute('playsinline', 'true') // iOS Safari plays inline only with it
  video.setAttribute('aria-hidden', 'true')
  video.muted = true
  video.autoplay = true
  Object.assign(video.style, { position: 'absolute', inset: '0', width: '100%', height: '100%', objectFit: 'cover' })

  const frame = doc.createElement('div')
  frame.setAttribute('aria-hidden', 'true')
  Object.assign(frame.style, {
    position: 'relative',
    width: '64vmin',
    height: '64vmin',
    border: '3px solid rgba(255,255,255,0.9)',
    borderRadius: '12px',
    boxShadow: '0 0 0 100vmax rgba(0,0,0,0.45)',
  })

  const text = doc.createElement('p')
  text.className = 'camera-scan__text'
  text.setAttribute('role', 'status')
  text.textContent = '正在打开相机…'
  Object.assign(text.style, {
    position: 'relative',
    margin: '24px 32px 0',
    color: '#fff',
    fontSize: 'var(--font-lg, 17px)',
    lineHeight: '1.6',
    textAlign: 'center',
  })

  const cancel = doc.createElement('button')
  cancel.type = 'button'
  cancel.className = 'camera-scan__cancel'
  cancel.textContent = '取消'
  Object.assign(cancel.style, {
    position: 'relative',
    marginTop: '32px',
    minWidth: '50vw',
    minHeight: 'var(--tap-min, 44px)',
    padding: '0 24px',
    border: '2px solid #fff',
    borderRadius: '999px',
    background: 'transparent',
    color: '#fff',
    fontSize: 'var(--font-lg, 17px)',
  })

  layer.append(video, frame, text, cancel)
  return { layer, video, frame, text, cancel }
}

export interface CameraScanDeps {
  doc?: Document
  media?: Pick<MediaDevices, 'getUserMedia'>
}

/**
 * Opens the scanner: resolves with the first code's text, or null when the patient taps 取消 (or 关闭 after being told
 * the camera cannot be used), or presses Escape. The camera is let go and the layer removed in every case, and focus
 * returns where it was.
 */
export function scanWithCamera({ doc = document, media = navigator.mediaDevices }: CameraScanDeps = {}): Promise<string | null> {
  return new Promise((resolve) => {
    const before = doc.activeElement as HTMLElement | null
    const { layer, video, frame, text, cancel } = buildLayer(doc)
    const canvas = doc.createElement('canvas')
    let stream: MediaStream | null = null
    let timer: ReturnType<typeof setTimeout> | undefined
    let done = false

    const finish = (result: string | null) => {
      if (done) return
      done = true
      clearTimeout(timer)
      stream?.getTracks().forEach((t) => t.stop())
      doc.removeEventListener('keydown', onKey, true)
      layer.remove()
      before?.focus?.()
      resolve(result)
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') finish(null)
    }
    cancel.addEventListener('click', () => finish(null))
    doc.addEventListener('keydown', onKey, true)
    doc.body.appendChild(layer)
    cancel.focus()

    const decodeFrame = () => {
      if (done) return
      const { videoWidth: w, videoHeight: h } = video
      const ctx = w && h ? canvas.getContext('2d', { willReadFrequently: true }) : null
      if (ctx && video.readyState >= 2) {
        const scale = Math.min(1, DECODE_WIDTH / w)
        canvas.width = Math.round(w * scale)
        canvas.height = Math.round(h * scale)
        ctx.drawImage(video, 0, 0, canvas.width, canvas.height)
        const found = decodeQr(ctx.getImageData(0, 0, canvas.width, canvas.height))
        if (found !== null) return finish(found)
      }
      timer = setTimeout(decodeFrame, DECODE_EVERY_MS)
    }

    media
      .getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false })
      .then(async (s) => {
        if (done) return s.getTracks().forEach((t) => t.stop())
        stream = s
        video.srcObject = s
        try {
          await video.play()
        } catch {
          // autoplay starts it where play() is refused
        }
        text.textContent = AIM_TEXT
        decodeFrame()
      })
      .catch((err: unknown) => {
        if (done) return
        // told in words, in the layer, with a way out: the page's typed code is the fallback
        frame.style.display = 'none'
        text.setAttribute('role', 'alert')
        text.textContent = refusalText(err)
        cancel.textContent = '关闭'
      })
  })
}
