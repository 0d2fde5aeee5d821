"""Proof: certificates of an optimum and the DRAT check of a refuted horizon."""
