import { useRef, useState } from 'react'
import Taro from '@tarojs/taro'
import { Input, Text, View } from '@tarojs/components'
import { Scan } from '@nutui/icons-react-taro'
import { Button } from '@/components/Button'
import { FormField, FormGroup } from '@/components/FormField'
import PageShell from '@/components/PageShell'
import Tappable from '@/components/Tappable'
import platform from '@/platform'
import { waitPayUrl } from '@/pageUrls'
import { toastError } from '@/ui/feedback'
import { billNoOfScannedCode, normalizeBillNo } from '@/utils/billCode'
import './index.scss'

/** Said when the scanned code is not a bill's. */
export const NOT_A_BILL_CODE = '无法识别该缴费单二维码，请输入缴费单号'
/** Said when the scanner could not be opened. */
export const SCAN_FAILED = '无法打开扫一扫，请输入缴费单号'
/** Said under the field when the typed number is not a bill number. */
export const BAD_BILL_NO = '缴费单号格式不正确：以B开头，后接18位数字'

/**
 * 扫码缴费 (spec §2 /palm/scanCode/index): scan the QR code printed on a bill, or type its number, and the bill opens
 * on 待缴费 (/palm/payment/waitPay?billNo=&source=scanCode, paid with sourceType 2, spec §4). 扫一扫 only where the
 * platform has a scanner; the typed number always.
 */
export default function ScanPay() {
  const [typed, setTyped] = useState('')
  const [error, setError] = useState('')
  const scanning = useRef(false)
  const scan = platform.scanCode

  const open = (billNo: string) => void Taro.navigateTo({ url: waitPayUrl(billNo) })

  const scanBill = async () => {
    if (!scan || scanning.current) return
    scanning.current = true
    try {
      const text = await scan()
      if (text === null) return
      const billNo = billNoOfScannedCode(text, platform.webOrigin())
      if (billNo) open(billNo)
      else toastError(NOT_A_BILL_CODE)
    } catch {
      toastError(SCAN_FAILED)
    } finally {
      scanning.current = false
    }
  }

  const query = () => {
    const billNo = normalizeBillNo(typed)
    if (!billNo) {
      setError(typed.trim() ? BAD_BILL_NO : '请输入缴费单号')
      return
    }
    setError('')
    open(billNo)
  }

  return (
    <PageShell title='扫码缴费'>
      <View className='scan-pay'>
        {scan && (
          <Tappable className='scan-pay__scan' onTap={() => void scanBill()}>
            <View aria-hidden>
              <Scan className='scan-pay__glyph' />
            </View>
            <Text className='scan-pay__scan-text'>扫一扫</Text>
            <Text className='scan-pay__scan-note'>扫描缴费单上的二维码</Text>
          </Tappable>
        )}
        <FormGroup title={scan ? '或输入缴费单号' : '输入缴费单号'}>
          <FormField label='缴费单号'>
            <Input
              className='scan-pay__input'
              placeholder='如 B202601010123456789'
              maxlength={32}
              value={typed}
              onInput={(e) => {
                setTyped(e.detail.value)
                if (error) setError('')
              }}
              onConfirm={query}
            />
          </FormField>
        </FormGroup>
        {error && (
          <View className='scan-pay__error' role='alert'>
            {error}
          </View>
        )}
        <Text className='scan-pay__note'>缴费单号印在缴费单二维码下方</Text>
        <View className='scan-pay__query'>
          <Button type='primary' block onClick={query}>
            查询
          </Button>
        </View>
      </View>
    </PageShell>
  )
}
