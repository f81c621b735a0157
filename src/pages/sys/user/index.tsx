import Taro from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { Cell } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import PageShell, { openPage } from '@/components/PageShell'
import { usePatientListLoader } from '@/components/PatientList'
import { useStores } from '@/stores'

import { maskIdCard, maskName } from '@/utils/mask'
import './index.scss'
import { ABOUT_URL, ACCESS_LOG_URL, ADD_PATIENT_URL, ADDRESS_LIST_URL, CHAT_HISTORY_URL, CHOOSE_PATIENT_URL, EDIT_USER_URL, HEALTH_CARD_URL, HOSPITAL_LIST_URL, INQUIRY_LIST_URL, loginUrl, MEDICAL_HISTORY_URL, MESSAGE_CENTRE_URL, MY_DOCTORS_URL, PATIENT_LIST_URL, PAYMENT_RECORDS_URL, PRIVACY_URL, REGISTER_RECORDS_URL } from '@/pageUrls'

const ENTRIES = [
  { title: '就诊人管理', url: PATIENT_LIST_URL },
  { title: '电子健康卡', url: HEALTH_CARD_URL },
  { title: '挂号记录', url: REGISTER_RECORDS_URL },
  { title: '缴费记录', url: PAYMENT_RECORDS_URL },
  { title: '问诊订单', url: INQUIRY_LIST_URL },
  { title: '问诊记录', url: CHAT_HISTORY_URL },
  { title: '电子病历', url: MEDICAL_HISTORY_URL },
  { title: '我的医生', url: MY_DOCTORS_URL },
  { title: '收货地址', url: ADDRESS_LIST_URL },
  { title: '消息中心', url: MESSAGE_CENTRE_URL },
  { title: '访问记录', url: ACCESS_LOG_URL },
  { title: '账号与隐私', url: PRIVACY_URL },
  { title: '切换医院', url: HOSPITAL_LIST_URL },
  { title: '更多', url: ABOUT_URL },
]

/** Mine: who is signed in, and the entries to everything that is theirs. */
function User() {
  const { user, hospital, patient, records } = useStores()
  const me = user.user
  const loadPatients = usePatientListLoader(() => user.isLoggedIn)
  const current = patient.current
  return (
    <PageShell title='我的' tab onReady={() => Promise.all([loadPatients(), user.isLoggedIn ? records.loadUnread() : undefined])}>
      <View className='mine__header'>
        {me?.wechatAvatar ? <Image className='mine__avatar' src={me.wechatAvatar} /> : <View className='mine__avatar'>{(me?.nickname || '用').slice(0, 1)}</View>}
        {user.isLoggedIn ? (
          <View className='mine__who' onClick={() => void Taro.navigateTo({ url: EDIT_USER_URL })}>
            <Text className='mine__name'>{me?.nickname || '未设置昵称'}</Text>
            <Text className='mine__mobile'>{me?.mobile}</Text>
          </View>
        ) : (
          <View className='mine__who' onClick={() => void Taro.navigateTo({ url: loginUrl(8) })}>
            <Text className='mine__name'>{me?.nickname || '微信用户'}</Text>
            <Text className='mine__bind'>绑定手机号，使用全部服务 ›</Text>
          </View>
        )}
      </View>
      {user.isLoggedIn && patient.loaded && (
        <View className='mine__patient'>
          {current ? (
            <>
              <View className='mine__patient-info'>
                <View className='mine__patient-head'>
                  <Text className='mine__patient-label'>当前就诊人</Text>
                  <Text className='mine__patient-name'>{maskName(current.name)}</Text>
                  {current.isDefault && <Text className='mine__patient-tag'>默认</Text>}
                </View>
                <Text className='mine__patient-id'>{current.idCard ? maskIdCard(current.idCard) : '无身份证（儿童）'}</Text>
              </View>
              <Text className='mine__patient-switch' onClick={() => void Taro.navigateTo({ url: CHOOSE_PATIENT_URL })}>
                切换
              </Text>
            </>
          ) : (
            <View className='mine__patient-add' onClick={() => void Taro.navigateTo({ url: ADD_PATIENT_URL })}>
              <Text className='mine__patient-plus'>+</Text>
              <Text>添加就诊人</Text>
            </View>
          )}
        </View>
      )}
      {hospital.hospital && <Text className='section-title'>{hospital.hospital.hospitalName}</Text>}
      <View className='mine__cells'>
        {ENTRIES.map((e) => (
          <Cell
            key={e.url}
            title={e.title}
            extra={
              e.url === MESSAGE_CENTRE_URL && records.unread > 0 ? (
                <>
                  <Text className='mine__badge' aria-label={`${records.unread}条未读`}>
                    {records.unread > 99 ? '99+' : records.unread}
                  </Text>
                  ›
                </>
              ) : (
                '›'
              )
            }
            onClick={() => openPage(e.url)}
          />
        ))}
      </View>
    </PageShell>
  )
}

export default observer(User)
