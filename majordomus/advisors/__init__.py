"""Advisors: who may be asked for an independent review, and how much review a doubt deserves.

The subsystem reads a catalogue, probes presence (a variable set, an executable on PATH),
replays recorded consultation outcomes into circuit breakers and plans. It never contacts
an advisor or the network, and no vendor, provider or model is named in its code: those
live only in the catalogue data files.
"""
