import Taro from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { Cell } from '@nutui/nutui-react-taro'
import { Cart } from '@nutui/icons-react-taro'
import { Articles, Comment, Doctor, Feedback, Footprint, Health, List, Location, Message, More, Notice, Order, Retweet, Setting, ShieldCheck, ToPay, User as UserIcon, Wallet } from '@nutui/icons-react-taro'
import { observer } from 'mobx-react-lite'
import PageShell, { openPage } from '@/components/PageShell'
import Toggle from '@/components/Toggle'
import { usePatientListLoader } from '@/components/PatientList'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'

import { maskIdCard, maskName } from '@/utils/mask'
import './index.scss'
import { PHARMACY_ORDERS_URL } from '@/pageUrls'
import { ABOUT_URL, ACCESS_LOG_URL, addPatientUrl, ADDRESS_LIST_URL, CHAT_HISTORY_URL, CHOOSE_PATIENT_URL, COMMENT_URL, EDIT_USER_URL, HEALTH_CARD_URL, HOSPITAL_CONFIG_URL, HOSPITAL_LIST_URL, INQUIRY_LIST_URL, loginUrl, MEDICAL_HISTORY_URL, MESSAGE_CENTRE_URL, MINE_URL, MY_DOCTORS_URL, PATIENT_LIST_URL, PAYMENT_RECORDS_URL, PRIVACY_URL, RECHARGE_RECORDS_URL, REGISTER_RECORDS_URL, SURVEY_LIST_URL } from '@/pageUrls'
import { PRESCRIPTION_OUTFLOW_URL } from '@/pageUrls'
import { Transit } from '@nutui/icons-react-taro'
import { useRecordStore } from '@/stores/RecordStore'
import { usePatientStore } from '@/stores/PatientStore'

const ENTRIES = [
  { title: '就诊人管理', url: PATIENT_LIST_URL, Icon: UserIcon },
  { title: '电子健康卡', url: HEALTH_CARD_URL, Icon: Health },
  { title: '挂号记录', url: REGISTER_RECORDS_URL, Icon: Order },
  { title: '缴费记录', url: PAYMENT_RECORDS_URL, Icon: ToPay },
  { title: '住院充值记录', url: RECHARGE_RECORDS_URL, Icon: Wallet },
  { title: '问诊订单', url: INQUIRY_LIST_URL, Icon: List },
  { title: '药品订单', url: PHARMACY_ORDERS_URL, Icon: Cart },
  { title: '问诊记录', url: CHAT_HISTORY_URL, Icon: Message },
  { title: '电子病历', url: MEDICAL_HISTORY_URL, Icon: Articles },
  { title: '处方流转', url: PRESCRIPTION_OUTFLOW_URL, Icon: Transit },
  { title: '我的医生', url: MY_DOCTORS_URL, Icon: Doctor },
  { title: '收货地址', url: ADDRESS_LIST_URL, Icon: Location },
  { title: '消息中心', url: MESSAGE_CENTRE_URL, Icon: Notice },
  { title: '满意度调查', url: SURVEY_LIST_URL, Icon: Comment },
  { title: '投诉建议', url: COMMENT_URL, Icon: Feedback },
  { title: '访问记录', url: ACCESS_LOG_URL, Icon: Footprint },
  { title: '账号与隐私', url: PRIVACY_URL, Icon: ShieldCheck },
  { title: '切换医院', url: HOSPITAL_LIST_URL, Icon: Retweet },
  { title: '更多', url: ABOUT_URL, Icon: More },
]

const STAFF_ENTRIES = [{ title: '医院设置', url: HOSPITAL_CONFIG_URL, Icon: Setting }]

/** Mine: who is signed in, and the entries to everything that is theirs. */
function User() {
  const { user, hospital, preferences } = useStores()
  const patient = usePatientStore()
  const records = useRecordStore()
  const me = user.user
  const loadPatients = usePatientListLoader(() => user.isLoggedIn)
  const current = patient.current
  // the hospital's staff also look after its settings; patients never see the entry
  const entries = user.isStaffOf(hospital.hospital?.hospitalCode) ? [...ENTRIES, ...STAFF_ENTRIES] : ENTRIES
  // binding from here comes back here, not to the home page
  const bindMobile = () => {
    user.rememberRedirect(MINE_URL)
    void Taro.navigateTo({ url: loginUrl(8) })
  }
  return (
    <PageShell title='我的' tab onReady={() => Promise.all([loadPatients(), user.isLoggedIn ? records.loadUnread() : undefined])}>
      <View className='mine__header'>
        {me?.wechatAvatar ? <Image className='mine__avatar' src={me.wechatAvatar} aria-hidden='true' /> : <View className='mine__avatar'>{(me?.nickname || '用').slice(0, 1)}</View>}
        {user.isLoggedIn ? (
          <Tappable className='mine__who' onTap={() => void Taro.navigateTo({ url: EDIT_USER_URL })}>
            <Text className='mine__name'>{me?.nickname || '未设置昵称'}</Text>
            <Text className='mine__mobile'>{me?.mobile}</Text>
          </Tappable>
        ) : (
          <Tappable className='mine__who' onTap={bindMobile}>
            <Text className='mine__name'>{me?.nickname || '微信用户'}</Text>
            <Text className='mine__bind'>绑定手机号，使用全部服务 ›</Text>
          </Tappable>
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
              <Tappable inline className='mine__patient-switch' onTap={() => void Taro.navigateTo({ url: CHOOSE_PATIENT_URL })}>
                切换
              </Tappable>
            </>
          ) : (
            <Tappable className='mine__patient-add' onTap={() => void Taro.navigateTo({ url: addPatientUrl(hospital.hospital?.hospitalCode) })}>
              <Text className='mine__patient-plus'>+</Text>
              <Text>添加就诊人</Text>
            </Tappable>
          )}
        </View>
      )}
      <View className='mine__cells'>
        <Cell
          title={<Text className='mine__elder-title'>长辈模式</Text>}
          description='字更大，按钮更大，常用服务在首页最前'
          extra={<Toggle checked={preferences.elderMode} onChange={(on) => preferences.setElderMode(on)} label='长辈模式' />}
        />
      </View>
      {hospital.hospital && <Text className='section-title'>{hospital.hospital.hospitalName}</Text>}
      <View className='mine__cells'>
        {entries.map((e) => (
          // the row is a link named by its title (and the unread count); the Cell only draws it
          <Tappable key={e.url} role='link' className='mine__link' label={e.url === MESSAGE_CENTRE_URL && records.unread > 0 ? `${e.title}，${records.unread}条未读` : e.title} onTap={() => openPage(e.url)}>
            <Cell
            title={
              <View className='mine__entry'>
                <View className='mine__entry-icon' aria-hidden>
                  <e.Icon className='mine__entry-glyph' />
                </View>
                <Text>{e.title}</Text>
              </View>
            }
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
          />
          </Tappable>
        ))}
      </View>
    </PageShell>
  )
}

export default observer(User)
