import { useId } from 'react'
import { View, Text, Image, ScrollView } from '@tarojs/components'
import Tappable from '@/components/Tappable'
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
    <Tappable className={`schedule-row schedule-row--${stateClass(item.state)}`} disabled={!open} onTap={() => onBook(item)}>
      {item.avatar ? <Image className='schedule-row__avatar' src={assetUrl(item.avatar)} aria-hidden='true' /> : <View className='schedule-row__avatar' />}
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
    </Tappable>
  )
}

/**
 * One morning or afternoon of the grid: a cell of the table, holding the button that books it (an open one). Its name
 * is the date, the half day and the state, then the fee: the when is not drawn in the cell (the headers show it), so
 * it is a text of its own that only names the button.
 */
function ScheduleCell({ item, when, onBook }: { item: ScheduleItem; when: string; onBook: (item: ScheduleItem) => void }) {
  const id = useId().replace(/:/g, '')
  return (
    <View role='cell' className={`schedule-grid__cell schedule-grid__cell--${stateClass(item.state)}`}>
      <View id={`${id}-when`} style={HIDDEN}>{`${when} ${item.state}`}</View>
      <Tappable fill labelledBy={`${id}-when ${id}-fee`} disabled={!isBookable(item)} onTap={() => onBook(item)}>
        <Text className='schedule-grid__state'>{item.state}</Text>
        <Text id={`${id}-fee`} className='schedule-grid__fee'>
          {yuan(item.feeFen)}
        </Text>
      </Tappable>
    </View>
  )
}

/** Not drawn, read only where an aria-labelledby points at it. */
const HIDDEN = { display: 'none' }

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
              return <ScheduleCell key={d} item={item} when={`${d} ${s.label}`} onBook={onBook} />
            })}
          </View>
        ))}
      </View>
    </ScrollView>
  )
}
