// Package sites owns what it takes to read one Series on one Site: the Site
// type with its pace (Rest and Gap), the Adapter contract each Site fills,
// URL canonicalisation to (site, series_id), outcome classification shared by
// both fetch routes, and the plain HTTPS route. The six concrete adapters live
// in sub-packages; backend/sites/registry lists them in a fixed order.
package sites
