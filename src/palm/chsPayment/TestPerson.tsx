import { useEffect } from 'react'
import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { maskIdCard, maskName } from '@/utils/mask'
import type { InsuranceTestUser } from '../../../types/api/insurance'
import { addPatientUrl } from '@/pageUrls'
import { usePatientStore } from '@/stores/PatientStore'

/**
 * On a test insurance platform (the server names a test person only there): who to choose on its authorisation page,
 * and whether this booking's patient is that person, since the platform authorises only the patient themself. When
 * not, the test person can be added as a patient (the form starts filled in) and booked for.
 */
function TestPerson({ person, patientId }: { person: InsuranceTestUser; patientId: number }) {
  const { hospital } = useStores()
  const patient = usePatientStore()
  useEffect(() => {
    if (!patient.loaded) void patient.load().catch(() => undefined)
  }, [patient])
  const bound = patient.byId(patientId)
  // the list is masked: the test person is known by the same masked name and number
  const isPatient = !!bound && bound.name === maskName(person.name) && bound.idCard === maskIdCard(person.idCard)

  const addAsPatient = () => {
    patient.startDraft({ name: person.name, idCard: person.idCard })
    void Taro.navigateTo({ url: addPatientUrl(hospital.hospital?.hospitalCode) })
  }

  return (
    <View className='chs__sandbox' role='note'>
      <Text className='chs__sandbox-title'>医保测试环境</Text>
      <Text className='chs__sandbox-line'>
        测试参保人：{maskName(person.name)} {maskIdCard(person.idCard)}（{person.insuTypeName}）
      </Text>
      {isPatient ? (
        <Text className='chs__sandbox-line'>本次就诊人即测试参保人，授权页请选择该测试参保人。</Text>
      ) : (
        <>
          <Text className='chs__sandbox-line'>测试环境只能以测试参保人授权，且须是就诊人本人。请添加测试参保人为就诊人，再为其预约。</Text>
          <Tappable row className='chs__sandbox-link' onTap={addAsPatient}>
            添加测试参保人为就诊人 ›
          </Tappable>
        </>
      )}
    </View>
  )
}

export default observer(TestPerson)
