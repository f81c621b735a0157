import Taro, { useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { MSG } from '@/ui/messages'

import { assetUrl } from '@/ui/assets'
import './introduce.scss'
import { deptScheduleUrl, introduceDoctorUrl } from '@/pageUrls'
import { useRegisterStore } from '@/stores/RegisterStore'

/** 科室介绍 (spec §2 /pages/introduce/dept?id=, open to anyone): the department, its doctors, and the way to book. */
function DeptIntroduce() {
  const register = useRegisterStore()
  const { params } = useRouter()
  const id = Number(params.id)
  const dept = id ? register.catalogue.deptById(id) : null

  const load = async () => {
    if (!id || !register.catalogue.hospital) return
    await Promise.all([register.catalogue.groups.length ? undefined : register.catalogue.loadDepartments(), register.catalogue.loadDeptDoctors(id)])
  }

  const body = () => {
    if (!register.catalogue.hospital) return <NoHospital />
    if (!id) return <Empty text='未找到该科室' />
    if (!dept && register.catalogue.groupsState === 'failed')
      return (
        <LoadFailed onRetry={() => void load()} />
      )
    if (!dept && register.catalogue.groupsState !== 'done') return <Loading />
    if (!dept) return <Empty text='未找到该科室' />
    return (
      <View className='introduce'>
        <View className='introduce__card'>
          <Text className='introduce__title'>{dept.deptName}</Text>
          <Text className='introduce__text'>{dept.intro || '暂无简介'}</Text>
        </View>
        <View className='introduce__card'>
          <Text className='introduce__heading'>科室医生</Text>
          {register.catalogue.deptDoctors.state === 'failed' ? (
            <Tappable className='introduce__muted' onTap={() => void register.catalogue.loadDeptDoctors(id)}>
              {MSG.listFailed}，点击重试
            </Tappable>
          ) : register.catalogue.deptDoctors.state !== 'done' ? (
            <Text className='introduce__muted'>{MSG.listLoading}</Text>
          ) : !register.catalogue.deptDoctors.value?.length ? (
            <Text className='introduce__muted'>暂无医生信息</Text>
          ) : (
            register.catalogue.deptDoctors.value.map((d) => (
              <Tappable key={d.id} className='introduce__doctor' onTap={() => void Taro.navigateTo({ url: introduceDoctorUrl(d.id) })}>
                {d.avatar ? <Image className='introduce__doctor-avatar' src={assetUrl(d.avatar)} aria-hidden='true' /> : <View className='introduce__doctor-avatar' />}
                <View className='introduce__doctor-text'>
                  <View>
                    <Text className='introduce__doctor-name'>{d.doctorName}</Text>
                    <Text className='introduce__doctor-title'>{d.title}</Text>
                  </View>
                  {d.speciality && <Text className='introduce__muted'>擅长：{d.speciality}</Text>}
                </View>
              </Tappable>
            ))
          )}
        </View>
        <View className='introduce__action'>
          <Button type='primary' block onClick={() => void Taro.navigateTo({ url: deptScheduleUrl(dept) })}>
            预约挂号
          </Button>
        </View>
      </View>
    )
  }

  return (
    <PageShell title={dept?.deptName ?? '科室介绍'} onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(DeptIntroduce)
