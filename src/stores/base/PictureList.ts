import { makeAutoObservable, runInAction } from 'mobx'
import Taro from '@tarojs/taro'
import { uploadFile } from '@/services/auth'

/** A picture of a form: the server's url and what the phone shows meanwhile. */
export interface FormPicture {
  url: string
  preview: string
}

/**
 * The pictures a form sends (病情资料, 投诉建议): chosen from the album or the camera, uploaded one by one, up to `max`;
 * one that fails stops the rest (the request layer has shown why). `locked` once what they belong to is sent.
 */
export class PictureList {
  items: FormPicture[] = []
  uploading = false
  locked = false

  constructor(readonly max: number) {
    makeAutoObservable(this, { max: false })
  }

  get urls(): string[] {
    return this.items.map((p) => p.url)
  }

  get room() {
    return this.max - this.items.length
  }

  async add() {
    const room = this.room
    if (room <= 0 || this.uploading || this.locked) return
    const chosen = await Taro.chooseImage({ count: room, sizeType: ['compressed'], sourceType: ['album', 'camera'] }).catch(() => null)
    const paths = (chosen?.tempFilePaths ?? []).slice(0, room)
    if (!paths.length) return
    runInAction(() => {
      this.uploading = true
    })
    try {
      for (const path of paths) {
        const { url } = await uploadFile(path)
        runInAction(() => {
          if (this.items.length < this.max) this.items.push({ url, preview: path })
        })
      }
    } catch {
      // the request layer has shown why
    } finally {
      runInAction(() => {
        this.uploading = false
      })
    }
  }

  remove(index: number) {
    if (this.locked) return
    this.items.splice(index, 1)
  }

  clear() {
    this.items = []
    this.locked = false
  }
}
