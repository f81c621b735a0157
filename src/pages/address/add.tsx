import { useEffect, useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text, Input, Textarea } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Toggle from '@/components/Toggle'
import Tappable from '@/components/Tappable'
import { fieldName, textareaName } from '@/components/FormField/fieldName'
import { toastError, toastSuccess } from '@/ui/feedback'
import { detailFromLocation, draftOf, emptyDraft, type AddressDraft } from '@/stores/AddressStore'
import { DETAIL_MAX_LENGTH, regionLabel } from '@/utils/address'
import type { Location } from '../../../types/api/address'
import RegionPicker, { type RegionChoice } from './RegionPicker'
import './add.scss'
import { CHOOSE_LOCATION_URL } from '@/pageUrls'
import { useAddressStore } from '@/stores/AddressStore'

/** Degrees as the server keeps them: at most 6 decimals (about 0.1 m), no trailing zeros. */
const degrees = (n: number) => String(Number(n.toFixed(6)))

/** The draft with a confirmed location: coordinates, detail line and, when the map named a district, the region. */
function withLocation(d: AddressDraft, loc: Location): AddressDraft {
  const next = { ...d, latitude: degrees(loc.latitude), longitude: degrees(loc.longitude) }
  const detail = detailFromLocation(loc).slice(0, DETAIL_MAX_LENGTH)
  if (detail) next.detail = detail
  if (loc.provinceCode && loc.cityCode && loc.districtCode) {
    next.provinceCode = loc.provinceCode
    next.cityCode = loc.cityCode
    next.districtCode = loc.districtCode
    next.regionText = regionLabel([loc.province, loc.city, loc.district])
  }
  return next
}

/** 新增 / 编辑收货地址 (`?id=` edits): receiver, mobile, region (picker or 定位), detail, default. */
function AddressAdd() {
  const address = useAddressStore()
  const id = Number(useRouter().params.id) || null
  const [draft, setDraft] = useState<AddressDraft>(emptyDraft)
  const [picking, setPicking] = useState(false)
  const set = (patch: Partial<AddressDraft>) => setDraft((d) => ({ ...d, ...patch }))

  // back from /choose-location: the confirmed location, or the wish to choose the region by hand
  const picked = address.pickedLocation
  const manual = address.manualRegionWanted
  useEffect(() => {
    if (picked) {
      const loc = address.takeLocation()!
      setDraft((d) => withLocation(d, loc))
      if (!loc.districtCode) toastError('未能识别所在地区，请手动选择')
    }
    if (manual) {
      address.askManualRegion(false)
      setPicking(true)
    }
  }, [picked, manual, address])

  // the system's map where there is one (a mini-program), else the app's own 选择位置 page
  const locate = async () => {
    const how = await address.locate().catch(() => 'failed' as const)
    if (how === 'page') void Taro.navigateTo({ url: CHOOSE_LOCATION_URL })
    else if (how === 'failed') toastError('暂时无法获取该位置的地区，请手动选择')
  }

  const chooseRegion = (c: RegionChoice) => {
    setPicking(false)
    set({ provinceCode: c.provinceCode, cityCode: c.cityCode, districtCode: c.districtCode, regionText: regionLabel(c.names) })
  }

  const save = async () => {
    const problem = await address.save(draft)
    if (problem) return toastError(problem)
    toastSuccess('保存成功')
    setTimeout(() => void Taro.navigateBack(), 800)
  }

  return (
    <PageShell
      title={id ? '编辑收货地址' : '新增收货地址'}
      onReady={async () => {
        const whole = await address.startEdit(id)
        setDraft(whole ? draftOf(whole) : emptyDraft())
      }}
    >
      <View className='address-form'>
        <View className='address-form__row'>
          <Text className='address-form__label'>收货人</Text>
          <Input className='address-form__input' placeholder='请输入收货人姓名' {...fieldName('收货人')} value={draft.name} onInput={(e) => set({ name: e.detail.value })} />
        </View>
        <View className='address-form__row'>
          <Text className='address-form__label'>手机号</Text>
          <Input
            className='address-form__input'
            type='number'
            maxlength={11}
            placeholder='请输入手机号'
            {...fieldName('手机号')}
            value={draft.mobile}
            onInput={(e) => set({ mobile: e.detail.value })}
          />
        </View>
        <View className='address-form__row'>
          <Text className='address-form__label'>所在地区</Text>
          <Tappable className='address-form__region' onTap={() => setPicking(true)}>
            {draft.regionText ? (
              <Text className='address-form__value'>{draft.regionText}</Text>
            ) : (
              <Text className='address-form__placeholder'>请选择省/市/区</Text>
            )}
          </Tappable>
          <Tappable className='address-form__locate' onTap={() => void locate()}>
            定位
          </Tappable>
        </View>
        <View className='address-form__row address-form__row--top'>
          <Text className='address-form__label'>详细地址</Text>
          <Textarea
            className='address-form__textarea'
            maxlength={DETAIL_MAX_LENGTH}
            placeholder='请输入街道、门牌号等'
            {...textareaName('详细地址')}
            value={draft.detail}
            autoHeight
            onInput={(e) => set({ detail: e.detail.value })}
          />
        </View>
        <View className='address-form__row'>
          <Text className='address-form__label address-form__label--wide'>设为默认地址</Text>
          {/* the default address stays the default until another one is made default */}
          <Toggle checked={draft.isDefault} disabled={!!address.editAddress?.isDefault} onChange={(v) => set({ isDefault: v })} label='设为默认地址' />
        </View>
      </View>
      <View className='address-form__save'>
        <Button type='primary' block loading={address.saving} onClick={() => void save().catch(() => undefined)}>
          保存
        </Button>
      </View>
      <RegionPicker
        visible={picking}
        value={[draft.provinceCode, draft.cityCode, draft.districtCode]}
        onClose={() => setPicking(false)}
        onChange={chooseRegion}
      />
    </PageShell>
  )
}

export default observer(AddressAdd)
