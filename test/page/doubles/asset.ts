/** A picture a page imports: webpack hands the page a URL; here, a name that says which picture it is not. */
export default 'asset.svg'
