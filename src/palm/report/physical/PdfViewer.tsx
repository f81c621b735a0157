import { View, Text } from '@tarojs/components'

/**
 * A mini-program has no pdf.js: its reports open in the system's document viewer (platform.openDocument) from the
 * report page, so this page only says where to look. The H5 viewer is PdfViewer.h5.tsx.
 */
export default function PdfViewer(_props: { load: () => Promise<ArrayBuffer> }) {
  return (
    <View style={{ padding: '48px 24px', textAlign: 'center' }}>
      <Text>请在体检报告详情中点击“查看PDF报告”，在手机的文档查看器中阅读</Text>
    </View>
  )
}
