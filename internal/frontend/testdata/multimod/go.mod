module example.com/multimod

go 1.26

require example.com/replaced v0.0.0

replace example.com/replaced => ../replaced // a local directory
