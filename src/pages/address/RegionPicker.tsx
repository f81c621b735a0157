import { useEffect, useState } from 'react'
import { Cascader } from '@nutui/nutui-react-taro'
import type { Region } from '../../../types/api/address'
import { useAddressStore } from '@/stores/AddressStore'

export interface RegionChoice {
  provinceCode: number
  cityCode: number
  districtCode: number
  /** Province, city, district names in order. */
  names: string[]
}

interface Props {
  visible: boolean
  /** The current province, city and district codes; empty (or zeros) when none is chosen yet. */
  value: number[]
  onClose: () => void
  onChange: (choice: RegionChoice) => void
}

/** The part of NutUI's cascader option used here. */
interface CascaderOption {
  text?: string
  value?: number | string
  leaf?: boolean
  children?: CascaderOption[]
}

const optionOf = (r: Region): CascaderOption => ({ text: r.name, value: r.code, leaf: r.leaf })

/**
 * 所在地区: province -> city -> district, each level asked from `/dld-system/nation/parent/{code}` when its parent
 * is chosen. NutUI's Cascader with `onLoad` (its `lazy` mode reloads from the value alone and drops the first pane,
 * so the provinces are passed as options and each further level comes from `onLoad`). An existing choice opens
 * with its three levels already loaded.
 */
export default function RegionPicker({ visible, value, onClose, onChange }: Props) {
  const address = useAddressStore()
  const [options, setOptions] = useState<CascaderOption[]>([])
  const chosen = value.length === 3 && value.every(Boolean) ? value : []

  useEffect(() => {
    if (!visible) return
    let alive = true
    const load = async () => {
      const provinces = (await address.regionsUnder(0)).map(optionOf)
      if (chosen.length === 3) {
        // the chosen path needs its panes: the province's cities, the city's districts
        const [provinceCode, cityCode] = chosen
        const province = provinces.find((p) => p.value === provinceCode)
        if (province) {
          province.children = (await address.regionsUnder(provinceCode!)).map(optionOf)
          const city = province.children.find((c) => c.value === cityCode)
          if (city) city.children = (await address.regionsUnder(cityCode!)).map(optionOf)
        }
      }
      if (alive) setOptions(provinces)
    }
    void load().catch(() => undefined)
    return () => {
      alive = false
    }
    // reload the tree each time the picker opens, for the value it opens with
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [visible])

  return (
    <Cascader
      className='region-picker'
      title='所在地区'
      closeable
      visible={visible}
      options={options}
      value={chosen}
      onClose={onClose}
      onLoad={async (node: CascaderOption) => (await address.regionsUnder(Number(node.value))).map(optionOf)}
      onChange={(codes: (string | number)[], path: CascaderOption[]) => {
        if (codes.length !== 3) return
        onChange({
          provinceCode: Number(codes[0]),
          cityCode: Number(codes[1]),
          districtCode: Number(codes[2]),
          names: path.map((n) => String(n.text ?? '')),
        })
      }}
    />
  )
}
