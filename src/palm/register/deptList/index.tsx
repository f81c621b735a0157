import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import { useStores } from '@/stores'
import { type ChosenDept } from '@/stores/RegisterStore'
import type { DeptSort } from '../../../../types/api/register'
import './index.scss'
import { SEARCH_URL, deptScheduleUrl } from '@/pageUrls'

const SORTS: { key: DeptSort; label: string }[] = [
  { key: 'default', label: '全部科室' },
  { key: 'hot', label: '热门科室' },
]

/** 选择科室 (spec §2 /palm/register/deptList/index): clinic groups on the left, their departments on the right. */
function DeptList() {
  const { register } = useStores()
  const group = register.catalogue.currentGroup

  const open = (dept: ChosenDept) => {
    register.catalogue.chooseDept(dept)
    void Taro.navigateTo({ url: deptScheduleUrl(dept) })
  }

  return (
    <PageShell title='选择科室' onReady={() => (register.catalogue.hospital ? register.catalogue.loadDepartments() : undefined)}>
      <View className='dept-list'>
        <View className='dept-list__search' onClick={() => void Taro.navigateTo({ url: SEARCH_URL })}>
          <Text className='dept-list__search-text'>搜索科室、医生、疾病</Text>
        </View>
        <View className='dept-list__sorts' role='tablist'>
          {SORTS.map((s) => (
            <View
              key={s.key}
              role='tab'
              aria-selected={register.catalogue.deptSort === s.key}
              className={`dept-list__sort${register.catalogue.deptSort === s.key ? ' dept-list__sort--on' : ''}`}
              onClick={() => register.catalogue.deptSort !== s.key && void register.catalogue.loadDepartments(s.key)}
            >
              {s.label}
            </View>
          ))}
        </View>
        {!register.catalogue.hospital ? (
          <Empty text='请先选择医院' />
        ) : register.catalogue.groupsState === 'loading' && register.catalogue.groups.length === 0 ? (
          <Loading />
        ) : register.catalogue.groupsState === 'failed' ? (
          <LoadFailed onRetry={() => void register.catalogue.loadDepartments()} />
        ) : register.catalogue.groups.length === 0 ? (
          <Empty text='该医院暂未开放预约科室' />
        ) : (
          <View className='dept-list__body'>
            <View className='dept-list__groups' role='tablist' aria-label='门诊'>
              {register.catalogue.groups.map((g, i) => (
                <View
                  key={g.id}
                  role='tab'
                  aria-selected={group?.id === g.id}
                  className={`dept-list__group${group?.id === g.id ? ' dept-list__group--on' : ''}`}
                  onClick={() => register.catalogue.chooseGroup(i)}
                >
                  {g.deptName}
                </View>
              ))}
            </View>
            <View className='dept-list__depts' aria-label='科室'>
              {group && group.children.length === 0 && <Text className='dept-list__state'>该门诊暂无科室</Text>}
              {group?.children.map((d) => (
                <View key={d.id} className='dept-list__dept' onClick={() => open(d)}>
                  <Text className='dept-list__dept-name'>{d.deptName}</Text>
                  {d.intro && <Text className='dept-list__dept-intro'>{d.intro}</Text>}
                </View>
              ))}
            </View>
          </View>
        )}
      </View>
    </PageShell>
  )
}

export default observer(DeptList)
