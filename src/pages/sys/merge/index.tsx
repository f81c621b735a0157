import HomePage from '@/components/HomePage'

export default function Index() {
  return <HomePage title='首页' />
}
