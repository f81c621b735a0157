import RecordDetail from './RecordDetail'

/** 充值详情 (spec §2 /pages/order/recharge/detail?id=): one deposit top-up of a stay. */
export default function InpatientRechargeDetail() {
  return <RecordDetail kind='inpatient' />
}
