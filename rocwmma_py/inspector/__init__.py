"""Which lane and register holds which element: tables (`tables`), pictures (`svg`) and the
`python -m rocwmma_py layout` command line (`cli`)."""
