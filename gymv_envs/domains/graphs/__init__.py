"""Graph problems drawn as pictures: paths, trees, matchings, flows, colourings, counts."""
