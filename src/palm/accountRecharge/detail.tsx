import RecordDetail from '../../pages/order/recharge/RecordDetail'

/** 充值详情 (spec §2 /palm/accountRecharge/detail?id=): one top-up of the outpatient account. */
export default function AccountRechargeDetail() {
  return <RecordDetail kind='clinic' />
}
