// TEMPORARY scaffolding while the codecs are written in parallel; each helper deletes its part.
