from boardrule.cli.main import main

main()
