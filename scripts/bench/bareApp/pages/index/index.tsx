import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import { counter } from '../../app'

/** A banner (the largest paint, as the home's is) and a NutUI button that reads the store. */
function Index() {
  return (
    <View>
      <View className="home__banner" style={{ height: '160px', padding: '24px', background: '#1677ff', color: '#fff', fontSize: '24px' }}>
        <Text>欢迎使用掌上医院</Text>
      </View>
      <Button type="primary" onClick={() => counter.add()}>
        预约挂号 {counter.count}
      </Button>
    </View>
  )
}

export default observer(Index)
