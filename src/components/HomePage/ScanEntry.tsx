import { useRef } from 'react'
import { Text, View } from '@tarojs/components'
import { Scan } from '@nutui/icons-react-taro'
import platform from '@/platform'
import { toastError } from '@/ui/feedback'
import { pageOfScannedCode } from '@/utils/scanRules'
import { openPage } from '../PageShell'
import Tappable from '../Tappable'

/** Said when the scanned code is not a page of this app. */
export const UNKNOWN_CODE = '无法识别该二维码'
/** Said when the scanner could not be opened (WeChat's JS-SDK not configured, the camera refused …). */
export const SCAN_FAILED = '无法打开扫一扫，请稍后重试'

/**
 * 扫一扫 in the home's header: scans a hospital's QR code (a doctor's card, a hospital's poster) and opens the page of
 * the app it stands for (src/utils/scanRules.ts); closing the scanner does nothing. Only where the platform has a
 * scanner (not in a plain browser).
 */
export default function ScanEntry() {
  // one scan at a time: in WeChat's browser the scanner opens only after the JS-SDK is configured
  const scanning = useRef(false)
  const scan = platform.scanCode
  if (!scan) return null

  const scanAndOpen = async () => {
    if (scanning.current) return
    scanning.current = true
    try {
      const text = await scan()
      if (text === null) return
      const page = pageOfScannedCode(text, platform.webOrigin())
      if (page) openPage(page)
      else toastError(UNKNOWN_CODE)
    } catch {
      toastError(SCAN_FAILED)
    } finally {
      scanning.current = false
    }
  }

  return (
    <Tappable className='home__scan' onTap={() => void scanAndOpen()}>
      <View aria-hidden>
        <Scan className='home__scan-glyph' />
      </View>
      <Text className='home__scan-text'>扫一扫</Text>
    </Tappable>
  )
}
