import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { type ChosenDept } from '@/stores/RegisterStore'
import type { DeptSort } from '../../../../types/api/register'
import './index.scss'
import { SEARCH_URL, deptScheduleUrl } from '@/pageUrls'
import { useRegisterStore } from '@/stores/RegisterStore'

const SORTS: { key: DeptSort; label: string }[] = [
  { key: 'default', label: '全部科室' },
  { key: 'hot', label: '热门科室' },
]

/** 选择科室 (spec §2 /palm/register/deptList/index): clinic groups on the left, their departments on the right. */
function DeptList() {
  const register = useRegisterStore()
  const group = register.catalogue.currentGroup

  const open = (dept: ChosenDept) => {
    register.catalogue.chooseDept(dept)
    void Taro.navigateTo({ url: deptScheduleUrl(dept) })
  }

  return (
    <PageShell title='选择科室' onReady={() => (register.catalogue.hospital ? register.catalogue.loadDepartments() : undefined)}>
      <View className='dept-list'>
        <Tappable className='dept-list__search' onTap={() => void Taro.navigateTo({ url: SEARCH_URL })}>
          <Text className='dept-list__search-text'>搜索科室、医生、疾病</Text>
        </Tappable>
        <View className='dept-list__sorts' role='tablist'>
          {SORTS.map((s) => (
            <Tappable
              key={s.key}
              role='tab'
              selected={register.catalogue.deptSort === s.key}
              className={`dept-list__sort${register.catalogue.deptSort === s.key ? ' dept-list__sort--on' : ''}`}
              onTap={() => register.catalogue.deptSort !== s.key && void register.catalogue.loadDepartments(s.key)}
            >
              {s.label}
            </Tappable>
          ))}
        </View>
        {!register.catalogue.hospital ? (
          <NoHospital />
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
                <Tappable
                  key={g.id}
                  role='tab'
                  selected={group?.id === g.id}
                  className={`dept-list__group${group?.id === g.id ? ' dept-list__group--on' : ''}`}
                  onTap={() => register.catalogue.chooseGroup(i)}
                >
                  {g.deptName}
                </Tappable>
              ))}
            </View>
            <View className='dept-list__depts' aria-label='科室'>
              {group && group.children.length === 0 && <Text className='dept-list__state'>该门诊暂无科室</Text>}
              {group?.children.map((d) => (
                <Tappable key={d.id} className='dept-list__dept' onTap={() => open(d)}>
                  <Text className='dept-list__dept-name'>{d.deptName}</Text>
                  {d.intro && <Text className='dept-list__dept-intro'>{d.intro}</Text>}
                </Tappable>
              ))}
            </View>
          </View>
        )}
      </View>
    </PageShell>
  )
}

export default observer(DeptList)
