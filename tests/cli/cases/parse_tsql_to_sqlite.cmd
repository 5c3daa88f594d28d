parse "select TOP 3 [Trap_#] from dbo.t where x > = 1 order by 1" --dialect tsql --to sqlite
