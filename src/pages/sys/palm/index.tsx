import HomePage from '@/components/HomePage'

export default function Index() {
  return <HomePage title='掌上医院' />
}
