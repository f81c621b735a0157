import { TimChatDriver } from '@/services/chat/timDriver'
import { registerTimDriver } from '@/services/chat/timRegistry'

// The Tencent IM driver with this target's SDK (./im), for the chat connection. Only the internet pages that chat
// import this file (src/internet/tim/MessageList.tsx), so the SDK ships with them: in the mini-programs in the internet
// subpackage, not in the main package; on H5 in their lazily loaded chunks. Until one of them has loaded, the main
// package's badge is the server's count (ConsultationList).
registerTimDriver((sdkAppId) => new TimChatDriver(sdkAppId))
