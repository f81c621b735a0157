// What the H5 build defines besides TARO_ENV (webpack5-runner's H5WebpackPlugin), before any Taro module reads it
process.env.TARO_PLATFORM = 'web'
process.env.FRAMEWORK = 'preact'
