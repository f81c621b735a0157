import { makeAutoObservable } from 'mobx'

/**
 * Client state of spec §3 for the service families. Each family's issue adds the behaviour; the fields are
 * the spec's, so every page of a family shares one place for them.
 */
export class AssistantStore {
  currentAssistant: { imAccount: string; name?: string } | null = null
  assistantUnread = 0
  assistantMessage: unknown[] = []
  conversationList: unknown[] = []
  topPosition = 0
  isCompleted = false

  constructor() {
    makeAutoObservable(this)
  }
}

export class PrescriptionStore {
  editMedicine: unknown = null
  selectMedicineList: unknown[] = []
  presOrder: unknown = null
  orderList: unknown[] = []
  prescription: unknown = null
  continueDrug: unknown = null

  constructor() {
    makeAutoObservable(this)
  }
}

export class PalmStore {
  clinicLabel = ''
  timeSeg = ''
  customPayment: unknown = null
  chsPatient: unknown = null
  chsLocation: unknown = null

  constructor() {
    makeAutoObservable(this)
  }
}

export class InternetStore {
  selectMedicine: unknown[] = []

  constructor() {
    makeAutoObservable(this)
  }
}
