import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import Tappable from '@/components/Tappable'
import { MSG } from '@/ui/messages'
import './PlaceFilter.scss'
import { useDoctorStore } from '@/stores/DoctorStore'

/**
 * 地区 above the doctor list: the city (GET /index/city), then one of its internet hospitals. The list call takes one
 * hospital, so a city narrows the list to its hospitals and the patient sees them one at a time; the app's own hospital
 * comes first when it is in the city. The cities are read the first time the patient opens it.
 */
function PlaceFilter({ ownHospitalName }: { ownHospitalName?: string }) {
  const doctor = useDoctorStore()
  const [open, setOpen] = useState(false)
  const cities = doctor.cities
  const current = doctor.city
  const text = doctor.placeText ?? (doctor.placeCode ? '其他医院' : (ownHospitalName ?? '请选择'))

  const toggle = () => {
    if (!open) void doctor.loadCities()
    setOpen(!open)
  }

  const panel = () => {
    if (cities.state === 'failed' && !cities.value)
      return (
        <Tappable inline className='place-filter__note' onTap={() => void doctor.loadCities()}>
          {MSG.listFailed}，点击重试
        </Tappable>
      )
    if (!cities.value) return <Text className='place-filter__note'>{MSG.listLoading}</Text>
    if (cities.value.length === 0) return <Text className='place-filter__note'>暂无可选的地区</Text>
    return (
      <>
        <Text className='place-filter__label'>城市</Text>
        <View className='place-filter__chips' role='radiogroup' aria-label='城市'>
          {cities.value.map((c) => (
            <Tappable
              key={c.city}
              role='radio'
              checked={current?.city === c.city}
              className={`place-filter__chip${current?.city === c.city ? ' place-filter__chip--on' : ''}`}
              onTap={() => {
                doctor.chooseCity(c)
                if (c.hospitals.length <= 1) setOpen(false)
              }}
            >
              {c.city}
            </Tappable>
          ))}
        </View>
        {current && (
          <>
            <Text className='place-filter__label'>医院</Text>
            <View className='place-filter__chips' role='radiogroup' aria-label='医院'>
              {current.hospitals.map((h) => (
                <Tappable
                  key={h.hospitalCode}
                  role='radio'
                  checked={doctor.hospital === h.hospitalCode}
                  className={`place-filter__chip${doctor.hospital === h.hospitalCode ? ' place-filter__chip--on' : ''}`}
                  onTap={() => {
                    doctor.chooseHospital(h.hospitalCode)
                    setOpen(false)
                  }}
                >
                  {h.hospitalName}
                </Tappable>
              ))}
            </View>
          </>
        )}
      </>
    )
  }

  return (
    <View className='place-filter'>
      <Tappable row className='place-filter__toggle' expanded={open} onTap={toggle}>
        <Text className='place-filter__name'>地区</Text>
        <Text className='place-filter__value'>{text}</Text>
        <Text className='place-filter__action'>{open ? '收起' : '切换'}</Text>
      </Tappable>
      {open && <View className='place-filter__panel'>{panel()}</View>}
    </View>
  )
}

export default observer(PlaceFilter)
