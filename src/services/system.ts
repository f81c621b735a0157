import { get } from './request'
import type { Location, Region } from '../../types/api/address'

/** `/dld-system`: administrative divisions and reverse geocoding (spec §7). */

/** The regions under a code: 0 lists the provinces, a province its cities, a city its districts. */
export const listRegions = (parentCode: number) => get<Region[]>(`/dld-system/nation/parent/${parentCode}`, undefined, { noLoading: true })

/** The address at a position; silent: the location page says why on the page itself. */
export const getLocation = (latitude: number, longitude: number) =>
  get<Location>('/dld-system/map/getLocation', { location: `${latitude},${longitude}` }, { silent: true })
