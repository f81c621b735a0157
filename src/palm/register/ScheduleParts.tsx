import { View, Text, Image, ScrollView } from '@tarojs/components'
import { isBookable, shortDate, stateClass, yuan } from '@/utils/register'
import { assetUrl } from '@/ui/assets'
import type { ScheduleItem, Segment } from '../../../types/api/register'
import './ScheduleParts.scss'

/** The department's general clinic has no doctor: its line names the clinic instead. */
export const doctorLabel = (item: Pick<ScheduleItem, 'doctorId' | 'doctorName'>) => (item.doctorId === null ? item.doctorName || '普通门诊' : item.doctorName)

/**
 * One bookable morning or afternoon: who, what kind of number, the fee in yuan and its state (有号 / 约满 / 停诊).
 * Only an open one can be tapped; a full or stopped one says so and does nothing.
 */
export function ScheduleRow({ item, onBook, showDate = false }: { item: ScheduleItem; onBook: (item: ScheduleItem) => void; showDate?: boolean }) {
  const open = isBookable(item)
  return (
    <View className={`schedule-row schedule-row--${stateClass(item.state)}`} onClick={open ? () => onBook(item) : undefined} aria-disabled={!open}>
      {item.avatar ? <Image className='schedule-row__avatar' src={assetUrl(item.avatar)} /> : <View className='schedule-row__avatar' />}
      <View className='schedule-row__main'>
        <View>
          <Text className='schedule-row__name'>{doctorLabel(item)}</Text>
          {item.title && <Text className='schedule-row__title'>{item.title}</Text>}
        </View>
        <Text className='schedule-row__meta'>
          {showDate ? `${shortDate(item.visitDate)} ${item.week} ` : ''}
          {item.segmentText} · {item.registerType}
        </Text>
      </View>
      <View className='schedule-row__side'>
        <Text className='schedule-row__fee'>{yuan(item.feeFen)}</Text>
        <Text className={`schedule-state schedule-state--${stateClass(item.state)}`}>
          {item.state}
          {open ? ` 余${item.remaining}` : ''}
        </Text>
      </View>
    </View>
  )
}

const SEGMENTS: { key: Segment; label: string }[] = [
  { key: 'am', label: '上午' },
  { key: 'pm', label: '下午' },
]

/**
 * One doctor's (or the general clinic's) schedules as a grid: a column per date, a row per morning and afternoon.
 * A cell shows the state and the fee; an empty cell means no clinic then.
 */
export function ScheduleGrid({ items, onBook }: { items: ScheduleItem[]; onBook: (item: ScheduleItem) => void }) {
  const dates = [...new Set(items.map((i) => i.visitDate))].sort()
  const at = (date: string, segment: Segment) => items.find((i) => i.visitDate === date && i.segment === segment)
  return (
    <ScrollView scrollX className='schedule-grid'>
      <View className='schedule-grid__table' role='table'>
        <View className='schedule-grid__row' role='row'>
          <View className='schedule-grid__corner' />
          {dates.map((d) => {
            const first = items.find((i) => i.visitDate === d)!
            return (
              <View key={d} className='schedule-grid__date' role='columnheader'>
                <Text className='schedule-grid__week'>{first.week}</Text>
                <Text className='schedule-grid__day'>{shortDate(d)}</Text>
              </View>
            )
          })}
        </View>
        {SEGMENTS.map((s) => (
          <View key={s.key} className='schedule-grid__row' role='row'>
            <View className='schedule-grid__segment' role='rowheader'>
              {s.label}
            </View>
            {dates.map((d) => {
              const item = at(d, s.key)
              if (!item)
                return (
                  <View key={d} className='schedule-grid__cell schedule-grid__cell--none' role='cell'>
                    —
                  </View>
                )
              const open = isBookable(item)
              return (
                <View
                  key={d}
                  role='cell'
                  aria-label={`${d} ${s.label} ${item.state}`}
                  className={`schedule-grid__cell schedule-grid__cell--${stateClass(item.state)}`}
                  onClick={open ? () => onBook(item) : undefined}
                >
                  <Text className='schedule-grid__state'>{item.state}</Text>
                  <Text className='schedule-grid__fee'>{yuan(item.feeFen)}</Text>
                </View>
              )
            })}
          </View>
        ))}
      </View>
    </ScrollView>
  )
}
