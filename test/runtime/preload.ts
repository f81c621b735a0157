// Taro's H5 API (the test utils' @tarojs/taro, React hooks attached) must be set up before @tarojs/router loads:
// without it the router fails with "Cannot read properties of undefined (reading 'history')"
import '@tarojs/taro'
