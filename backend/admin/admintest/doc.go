// Package admintest is the admin world the tests share: a known, varied
// set of Lanes (one in each interesting state), passes, failures, owner
// notices and the two Readers, seeded at a fixed clock (Seed, Now), the
// six-Site registry (Registry, SiteNames) and fake Lanes that record
// wakes (FakeLanes). admin's own tests build on it directly; the JSON
// server over it is backend/api/apitest, so this package imports nothing
// under backend/api.
package admintest
