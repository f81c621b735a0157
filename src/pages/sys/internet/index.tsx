import HomePage from '@/components/HomePage'

export default function Index() {
  return <HomePage title='互联网医院' />
}
