import { useState } from 'react'
import Taro from '@tarojs/taro'
import { View, Text, Image, RichText } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { assetUrl } from '@/ui/assets'
import { MSG } from '@/ui/messages'
import './introduce.scss'
import { introduceDeptUrl, introduceHtmlUrl } from '@/pageUrls'
import { useRegisterStore } from '@/stores/RegisterStore'

/** The hospital's guide: its textConfig key and title. */
const GUIDE = { key: 'guideHtml', title: '就医指南' }

/**
 * 医院介绍 (spec §2 /pages/introduce/index, open to anyone): the current hospital's name, level, address and phone, its
 * introduction (rich text the server has sanitised; the plain intro when it has none), the guide, and its departments,
 * each opening 科室介绍.
 */
function Introduce() {
  const { hospital } = useStores()
  const register = useRegisterStore()
  const h = hospital.hospital
  const [intro, setIntro] = useState<string | null>(null)
  const [failed, setFailed] = useState(false)

  const load = async () => {
    if (!hospital.hospital) return
    setFailed(false)
    try {
      const [html] = await Promise.all([hospital.textConfig('introduceHtml'), register.catalogue.groups.length ? undefined : register.catalogue.loadDepartments()])
      setIntro(html)
    } catch (e) {
      setFailed(true)
      throw e
    }
  }

  const body = () => {
    if (!h) return <NoHospital />
    if (failed && intro === null) return <LoadFailed onRetry={() => void load().catch(() => undefined)} />
    if (intro === null) return <Loading />
    return (
      <View className='introduce'>
        <View className='introduce__head'>
          {h.logo ? <Image className='introduce__avatar' src={assetUrl(h.logo)} aria-hidden='true' /> : null}
          <Text className='introduce__name'>{h.hospitalName}</Text>
          {h.level && <Text className='introduce__sub'>{h.level}</Text>}
        </View>
        <View className='introduce__card'>
          {h.address && <Text className='introduce__line'>地址：{h.address}</Text>}
          {h.phone && (
            <Tappable role='link' className='introduce__line introduce__link' label={`拨打医院电话 ${h.phone}`} onTap={() => void Taro.makePhoneCall({ phoneNumber: h.phone }).catch(() => undefined)}>
              电话：{h.phone}
            </Tappable>
          )}
          <Tappable role='link' className='introduce__line introduce__link' onTap={() => void Taro.navigateTo({ url: introduceHtmlUrl(GUIDE.key, GUIDE.title) })}>
            {GUIDE.title} ›
          </Tappable>
        </View>
        <View className='introduce__card'>
          <Text className='introduce__heading'>医院简介</Text>
          {intro ? <RichText className='introduce__rich' nodes={intro} /> : <Text className='introduce__text'>{h.intro || '暂无简介'}</Text>}
        </View>
        <View className='introduce__card'>
          <Text className='introduce__heading'>科室导航</Text>
          {register.catalogue.groupsState === 'failed' && !register.catalogue.groups.length ? (
            <Text className='introduce__muted'>{MSG.listFailed}</Text>
          ) : (
            register.catalogue.groups.map((g) => (
              <View key={g.id} className='introduce__group'>
                <Text className='introduce__group-name'>{g.deptName}</Text>
                <View className='introduce__depts'>
                  {g.children.map((d) => (
                    <Tappable key={d.id} role='link' className='introduce__dept' onTap={() => void Taro.navigateTo({ url: introduceDeptUrl(d.id) })}>
                      {d.deptName}
                    </Tappable>
                  ))}
                </View>
              </View>
            ))
          )}
        </View>
      </View>
    )
  }

  return (
    <PageShell title='医院介绍' onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(Introduce)
