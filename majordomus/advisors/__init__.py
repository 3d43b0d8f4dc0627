"""Advisors: who may be asked for an independent review, and how much review a doubt deserves.

Never contacts an advisor or the network; vendors and models live only in the catalogue data."""
