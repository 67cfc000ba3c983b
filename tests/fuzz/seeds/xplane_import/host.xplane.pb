
9	/host:CPUthread€€€ÅÝð•š"èˆ'"
op"host0