import { View, Image } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import Tappable from '../Tappable'
import type { PictureList } from '@/stores/base/PictureList'
import './index.scss'

/**
 * The pictures of a form (病情资料, 投诉建议): each shown with its own 删除 button until the form is sent, and an 添加图片
 * square while there is room. An observer: it reads the list itself.
 */
function PicturePicker({ photos, locked = false }: { photos: PictureList; locked?: boolean }) {
  const fixed = locked || photos.locked
  return (
    <View className='picture-picker'>
      {photos.items.map((pic, i) => (
        <View key={pic.url} className='picture-picker__item'>
          <Image className='picture-picker__thumb' src={pic.preview} imgProps={{ alt: `第${i + 1}张图片` }} />
          {!fixed && (
            <Tappable className='picture-picker__remove' label={`删除第${i + 1}张图片`} onTap={() => photos.remove(i)}>
              ×
            </Tappable>
          )}
        </View>
      ))}
      {!fixed && photos.room > 0 && (
        <Tappable className='picture-picker__item picture-picker__item--add' label='添加图片' onTap={() => void photos.add()}>
          {photos.uploading ? '上传中' : '+'}
        </Tappable>
      )}
    </View>
  )
}

export default observer(PicturePicker)
